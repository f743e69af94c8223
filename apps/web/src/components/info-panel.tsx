// The information side panel (spec 1 §2, spec 2 §2, spec 3 §2): clicking a field shows its
// title, description, possible values and why it matters.
import { createContext, Fragment, useContext, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';

export interface FieldInfo {
  title: string;
  description: string;
  possibleValues?: string[];
  whyImportant?: string;
}

interface InfoPanelState {
  info: FieldInfo | null;
  show(info: FieldInfo): void;
  clear(): void;
}

const InfoContext = createContext<InfoPanelState | null>(null);

export function InfoPanelProvider({ children }: { children: ReactNode }) {
  const [info, setInfo] = useState<FieldInfo | null>(null);
  return <InfoContext.Provider value={{ info, show: setInfo, clear: () => setInfo(null) }}>{children}</InfoContext.Provider>;
}

/** Handlers that open the panel for a field (on click and on focus). */
export function useFieldInfo(info: FieldInfo) {
  const ctx = useContext(InfoContext);
  return ctx ? { onClick: () => ctx.show(info), onFocus: () => ctx.show(info) } : {};
}

/** Whether a field's information is shown (a layout may hide the empty panel). */
export function useInfoShown(): boolean {
  return Boolean(useContext(InfoContext)?.info);
}

/** A title that may wrap only between words or at camel-case bounds ("screenAspect|Ratio"),
 *  never in the middle of a word part. */
export function wrappable(title: string): ReactNode[] {
  return title.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[_/.-])/).map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

export function InfoPanel({ placeholder = 'Click a field to learn what it means.' }: { placeholder?: string }) {
  const ctx = useContext(InfoContext);
  const info = ctx?.info;
  return (
    <Paper
      variant="outlined"
      component="aside"
      aria-label="Field information"
      sx={{ p: 2.5, height: '100%', minHeight: 200, minWidth: 0, overflowWrap: 'break-word' }}
    >
      {!info ? (
        <Box sx={{ display: 'flex', gap: 1, color: 'text.secondary' }}>
          <InfoOutlinedIcon fontSize="small" />
          <Typography variant="body2">{placeholder}</Typography>
        </Box>
      ) : (
        <Box>
          <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
            <Typography variant="h3" component="h2" sx={{ minWidth: 0, overflowWrap: 'normal', wordBreak: 'normal', hyphens: 'manual' }}>
              {wrappable(info.title)}
            </Typography>
            <IconButton size="small" aria-label="Close information" onClick={ctx?.clear}>
              <CloseIcon fontSize="small" />
            </IconButton>
          </Box>
          <Typography variant="body2" sx={{ mt: 1.5 }}>
            {info.description}
          </Typography>
          {info.possibleValues && info.possibleValues.length > 0 && (
            <>
              <Divider sx={{ my: 2 }} />
              <Typography variant="subtitle2">Possible values</Typography>
              <Box component="ul" sx={{ pl: 2.5, my: 1 }}>
                {info.possibleValues.map((v) => (
                  <Typography component="li" variant="body2" key={v}>
                    {v}
                  </Typography>
                ))}
              </Box>
            </>
          )}
          {info.whyImportant && (
            <>
              <Divider sx={{ my: 2 }} />
              <Typography variant="subtitle2">Why is this important?</Typography>
              <Typography variant="body2" sx={{ mt: 1 }}>
                {info.whyImportant}
              </Typography>
            </>
          )}
        </Box>
      )}
    </Paper>
  );
}
