// Add Knowledge › Crawl: crawl a site (same site, up to 20 pages, robots.txt honoured on the
// server), pick pages with a select-all box (indeterminate when some are picked), name each,
// submit them as URL items (spec 4 §5). Include/exclude path patterns narrow the crawl, and the
// collection may re-crawl the site daily or weekly (issue 15 item 6).
import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import MenuItem from '@mui/material/MenuItem';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { CRAWL_SCHEDULES, crawlForm, type CrawledPage, type CrawlSchedule } from '@parla/shared/schemas/knowledge';
import { FormTextField } from '../../../components/form/form-text-field';
import { ApiError, errorLines } from '../../../lib/api-client';
import { saveCrawlSchedule, useCrawl } from '../api/crawl';
import { submitBatch, type SubmitContext } from './submit-knowledge';

export const NO_URLS_CRAWLED = 'No URLs crawled. Please crawl the URLs before submitting.';
export const SELECT_A_URL = 'Please select a URL before submitting.';
export const CRAWL_EMPTY = 'Unable to fetch URLs from the provided website. Please check the URL and try again.';

const SCHEDULE_LABELS: Record<CrawlSchedule, string> = { off: 'Off', daily: 'Daily', weekly: 'Weekly' };
const patterns = (text: string) =>
  text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);

interface Row extends CrawledPage {
  name: string;
  selected: boolean;
}

/** Spec 4 §7: on error the message is read from the answer's `message`. */
function crawlError(err: unknown): string {
  const message = err instanceof ApiError ? (err.body as { message?: unknown } | undefined)?.message : undefined;
  return typeof message === 'string' && message ? message : errorLines(err).join(' ');
}

export function CrawlTab({ ctx }: { ctx: SubmitContext }) {
  const crawl = useCrawl();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [showNameErrors, setShowNameErrors] = useState(false);
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const [schedule, setSchedule] = useState<CrawlSchedule>('off');
  const [crawled, setCrawled] = useState<string | null>(null);
  const { control, handleSubmit } = useForm<{ url: string }>({
    resolver: zodResolver(crawlForm),
    defaultValues: { url: '' },
    reValidateMode: 'onChange',
  });

  const runCrawl = handleSubmit(async ({ url }) => {
    setError(null);
    setShowNameErrors(false);
    try {
      const pages = await crawl.mutateAsync({ url, include: patterns(include), exclude: patterns(exclude) });
      setCrawled(url);
      setRows(pages.map((p) => ({ ...p, name: p.title || p.url, selected: true })));
      if (pages.length === 0) setError(CRAWL_EMPTY);
    } catch (err) {
      setRows(null);
      setError(crawlError(err));
    }
  });

  const selected = rows?.filter((r) => r.selected) ?? [];
  const all = rows !== null && rows.length > 0 && selected.length === rows.length;
  const some = selected.length > 0 && !all;

  const submit = async () => {
    if (!rows || rows.length === 0) return setError(NO_URLS_CRAWLED);
    if (selected.length === 0) return setError(SELECT_A_URL);
    if (selected.some((r) => !r.name.trim())) return setShowNameErrors(true);
    setError(null);
    if (schedule !== 'off' && crawled) {
      try {
        await saveCrawlSchedule(ctx.collectionId, { schedule, url: crawled, include: patterns(include), exclude: patterns(exclude) });
      } catch (err) {
        return setError(errorLines(err).join(' '));
      }
    }
    void submitBatch(
      ctx,
      selected.map((r) => ({ name: r.name.trim(), knowledge_type: { url: { url: r.url } } })),
    );
  };

  const update = (i: number, patch: Partial<Row>) => {
    if (patch.selected !== undefined) setError(null);
    setRows((list) => list && list.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Box
        component="form"
        noValidate
        aria-label="Crawl a website"
        onSubmit={runCrawl}
        sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}
      >
        <FormTextField control={control} name="url" label="Website URL" required placeholder="https://www.example.com" />
        <Button type="submit" variant="outlined" sx={{ mt: 2, height: 56, minWidth: 110 }} disabled={crawl.isPending}>
          {crawl.isPending ? <CircularProgress size={22} aria-label="Crawling" /> : 'Crawl'}
        </Button>
      </Box>
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        <TextField
          size="small"
          label="Only paths"
          placeholder="/blog/**, /help/*"
          value={include}
          onChange={(e) => setInclude(e.target.value)}
          sx={{ flex: 1, minWidth: 0 }}
        />
        <TextField
          size="small"
          label="Skip paths"
          placeholder="/admin/**"
          value={exclude}
          onChange={(e) => setExclude(e.target.value)}
          sx={{ flex: 1, minWidth: 0 }}
        />
        <TextField
          select
          size="small"
          label="Re-crawl"
          value={schedule}
          onChange={(e) => setSchedule(e.target.value as CrawlSchedule)}
          sx={{ flex: 'none', width: 150 }}
        >
          {CRAWL_SCHEDULES.map((s) => (
            <MenuItem key={s} value={s}>
              {SCHEDULE_LABELS[s]}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
      <Box sx={{ flex: 1, minHeight: 0, overflowY: 'auto', mt: 1 }}>
        {rows && rows.length > 0 && (
          <>
            <FormControlLabel
              control={
                <Checkbox
                  checked={all}
                  indeterminate={some}
                  onChange={(e) => {
                    setError(null);
                    setRows((list) => list && list.map((r) => ({ ...r, selected: e.target.checked })));
                  }}
                />
              }
              label={`Select all (${selected.length} of ${rows.length} pages)`}
            />
            {rows.map((row, i) => (
              <Stack key={row.url} direction="row" spacing={1} sx={{ alignItems: 'flex-start', py: 0.5 }}>
                <Checkbox
                  checked={row.selected}
                  onChange={(e) => update(i, { selected: e.target.checked })}
                  slotProps={{ input: { 'aria-label': `Select ${row.url}` } }}
                />
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <TextField
                    label="Name"
                    size="small"
                    margin="dense"
                    value={row.name}
                    onChange={(e) => update(i, { name: e.target.value })}
                    error={showNameErrors && row.selected && !row.name.trim()}
                    helperText={showNameErrors && row.selected && !row.name.trim() ? 'Name is required' : undefined}
                    slotProps={{ htmlInput: { 'aria-label': `Name of ${row.url}` } }}
                  />
                  <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
                    {row.url}
                  </Typography>
                </Box>
              </Stack>
            ))}
          </>
        )}
      </Box>
      <Box sx={{ pt: 2, display: 'flex', justifyContent: 'flex-end' }}>
        <Button variant="contained" onClick={() => void submit()}>
          Submit
        </Button>
      </Box>
    </Box>
  );
}
