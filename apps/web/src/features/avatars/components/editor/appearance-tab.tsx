// APPEARANCE (spec 2 §2): four grids by avatar type fed by the catalogue; video shows Coming Soon
// while there are none; a custom image avatar tile gated by plan; disabled for self-hosted configs.
import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import CircularProgress from '@mui/material/CircularProgress';
import FormHelperText from '@mui/material/FormHelperText';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import AddPhotoAlternateOutlinedIcon from '@mui/icons-material/AddPhotoAlternateOutlined';
import { useFormContext, useWatch } from 'react-hook-form';
import type { DhType } from '@parla/shared/enums';
import { allowsCustomImageAvatar, planName } from '@parla/shared/plans';
import { AVATAR_MESSAGES } from '@parla/shared/schemas/avatar';
import { errorLines } from '../../../../lib/api-client';
import { useCatalogueAvatars } from '../../api/get-catalogue';
import { subscriptionTypeOf } from '../../api/get-account-info';
import type { EditorValues } from '../../lib/editor-values';
import { CustomImageAvatarDialog } from './custom-image-avatar-dialog';
import { useEditor } from './editor-context';
import { TileGrid } from './tile-grid';
import { OWN_MODEL_UPLOAD_LABEL, useOwnModel } from './own-model';
import { OWN_MODEL_APPEARANCE } from '@parla/shared/schemas/avatar';

const TYPE_TABS: { type: DhType; label: string }[] = [
  { type: 'image', label: 'IMAGE AVATARS' },
  { type: '2d', label: 'UPPER BODY 3D' },
  { type: '3d', label: 'FULL BODY 3D' },
  { type: 'vba', label: 'VIDEO AVATARS' },
];

export function AppearanceTab() {
  const { mode, selfHosted, accountInfo, setUpload } = useEditor();
  const { setValue, getValues, formState } = useFormContext<EditorValues>();
  const appearanceId = useWatch<EditorValues, 'appearanceId'>({ name: 'appearanceId' });
  const dhType = useWatch<EditorValues, 'dhType'>({ name: 'dhType' });
  const catalogue = useCatalogueAvatars();
  const [typeTab, setTypeTab] = useState<DhType>(dhType || '2d');
  const [customOpen, setCustomOpen] = useState(false);
  const [upgradeFor, setUpgradeFor] = useState<'image' | '3d'>('image');
  const own = useOwnModel(typeTab, () => {
    setUpgradeFor('3d');
    setCustomOpen(true);
  });
  const list = (catalogue.data?.avatars ?? []).filter((a) => a.type === typeTab);
  const error = formState.errors.appearanceId?.message ?? formState.errors.dhType?.message;

  const choose = (id: string) => {
    if (id === OWN_MODEL_APPEARANCE) return own.select();
    const item = catalogue.data?.avatars.find((a) => a.id === id);
    if (!item) return;
    // A catalogue face replaces an own model that was chosen but not saved.
    setUpload('avatarModel', undefined);
    setValue('appearanceId', item.id, { shouldDirty: true, shouldValidate: formState.isSubmitted || Boolean(error) });
    setValue('dhType', item.type, { shouldDirty: true, shouldValidate: formState.isSubmitted || Boolean(error) });
    if (mode === 'create' && !getValues('name').trim()) setValue('name', item.name, { shouldDirty: true });
  };

  return (
    <Box>
      {selfHosted && (
        <Alert severity="info" sx={{ mb: 2 }}>
          This avatar uses a self-hosted config file, so its appearance is set there. Transfer hosting in the EMBED tab to change it here.
        </Alert>
      )}
      <Tabs value={typeTab} onChange={(_e, v: DhType) => setTypeTab(v)} variant="scrollable" aria-label="Avatar types" sx={{ mb: 2 }}>
        {TYPE_TABS.map((t) => (
          <Tab key={t.type} value={t.type} label={t.label} />
        ))}
      </Tabs>
      {mode === 'create' && !appearanceId && (
        <Typography color="text.secondary" sx={{ mb: 1.5 }}>
          {AVATAR_MESSAGES.selectFromGrid}
        </Typography>
      )}
      {catalogue.isPending && <CircularProgress size={28} aria-label="Loading avatars" />}
      {catalogue.isError && <Alert severity="error">{errorLines(catalogue.error).join(' ')}</Alert>}
      {catalogue.isSuccess && typeTab === 'vba' && list.length === 0 && (
        <Box sx={{ py: 6, textAlign: 'center' }}>
          <Typography variant="h3" component="p">
            Coming Soon
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            Video avatars are on their way, for PRO and ENTERPRISE plans first.
          </Typography>
        </Box>
      )}
      {catalogue.isSuccess && (list.length > 0 || typeTab === 'image') && (
        <Box sx={{ display: 'grid', gap: 1.5 }}>
          <TileGrid
            label="Avatar appearances"
            aspect="3 / 4"
            minWidth={130}
            disabled={selfHosted}
            tiles={[...list.map((a) => ({ key: a.id, label: a.name, imageURL: a.previewURL })), ...own.tiles]}
            upload={own.upload}
            selected={appearanceId || null}
            onSelect={choose}
          />
          {own.gated && (
            <UploadLink onClick={own.onUpgrade} disabled={selfHosted}>
              {OWN_MODEL_UPLOAD_LABEL}
            </UploadLink>
          )}
          {own.note}
          {typeTab === 'image' && (
            <UploadLink
              onClick={() => {
                setUpgradeFor('image');
                setCustomOpen(true);
              }}
              disabled={selfHosted || !accountInfo}
            >
              Upload a custom image avatar
            </UploadLink>
          )}
        </Box>
      )}
      {error && (
        <FormHelperText error sx={{ mt: 1.5, fontSize: '0.95rem' }}>
          {error}
        </FormHelperText>
      )}
      <CustomImageAvatarDialog
        open={customOpen}
        what={upgradeFor}
        allowed={allowsCustomImageAvatar(planName(subscriptionTypeOf(accountInfo)))}
        onClose={() => setCustomOpen(false)}
      />
    </Box>
  );
}

/** A link-like button under the appearance tiles that starts an upload (or its upgrade prompt). */
function UploadLink({ onClick, disabled, children }: { onClick: () => void; disabled: boolean; children: ReactNode }) {
  return (
    <ButtonBase
      onClick={onClick}
      disabled={disabled}
      sx={{
        justifySelf: 'start',
        gap: 1,
        px: 2,
        py: 1,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1.5,
        color: 'primary.main',
        fontWeight: 600,
      }}
    >
      <AddPhotoAlternateOutlinedIcon /> {children}
    </ButtonBase>
  );
}
