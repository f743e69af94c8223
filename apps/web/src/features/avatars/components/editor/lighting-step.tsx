// Environment → Background → Lighting (spec 2 §2): directional lighting presets, upper body only.
import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import { LIGHT_PRESET_KEY } from '@parla/shared/schemas/avatar';
import { errorLines } from '../../../../lib/api-client';
import { useCatalogueEnvironments } from '../../api/get-catalogue';
import { NONE_TILE, TileGrid } from './tile-grid';
import { useAvatarJson } from './use-avatar-json';

export function LightingStep({ disabled }: { disabled: boolean }) {
  const env = useCatalogueEnvironments();
  const { json, update } = useAvatarJson();
  const current = json.Lights?.[0]?.[LIGHT_PRESET_KEY];
  const selected = typeof current === 'string' ? current : null;
  if (env.isPending) return <CircularProgress size={28} aria-label="Loading lighting" />;
  if (env.isError) return <Alert severity="error">{errorLines(env.error).join(' ')}</Alert>;
  return (
    <TileGrid
      label="Lighting"
      aspect="1 / 1"
      minWidth={120}
      disabled={disabled}
      tiles={env.data.lights.map((l) => ({ key: l.id, label: l.name, imageURL: l.previewURL }))}
      selected={selected}
      none={{ label: 'No lighting preset' }}
      onSelect={(id) => update((j) => ({ ...j, Lights: id === NONE_TILE ? [] : [{ [LIGHT_PRESET_KEY]: id }] }))}
    />
  );
}
