// A grid of selectable picture tiles (appearances, backgrounds, lights, environments), with an
// optional upload tile and delete buttons on the customer's own items. A selected tile stays
// selected when clicked again (issue 39: a second click used to clear the choice and the save
// then stored nothing, with no hint); grids where "nothing" is a valid choice offer it as a tile
// of its own (`none`), so clearing is always a visible, deliberate pick.
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import ViewInArOutlinedIcon from '@mui/icons-material/ViewInArOutlined';
import BlockOutlinedIcon from '@mui/icons-material/BlockOutlined';

export interface Tile {
  key: string;
  label: string;
  /** An image to show; a video URL plays muted; none shows an icon. */
  imageURL?: string | null;
  videoURL?: string | null;
  badge?: string;
  onDelete?: () => void;
}

export interface TileGridProps {
  label: string;
  tiles: Tile[];
  selected: string | null;
  onSelect(key: string): void;
  disabled?: boolean;
  upload?: { label: string; accept: string; onFile(file: File): void; hint?: ReactNode };
  aspect?: '1 / 1' | '16 / 9' | '3 / 4';
  minWidth?: number;
  /** A first tile meaning "none of these", selected while `selected` is null. */
  none?: { label: string };
}

/** The key `onSelect` receives for the `none` tile. */
export const NONE_TILE = '';

export function TileGrid({ label, tiles, selected, onSelect, disabled, upload, aspect = '16 / 9', minWidth = 140, none }: TileGridProps) {
  const all: Tile[] = none ? [{ key: NONE_TILE, label: none.label }, ...tiles] : tiles;
  const current = none ? (selected ?? NONE_TILE) : selected;
  return (
    <Box
      role="listbox"
      aria-label={label}
      aria-disabled={disabled || undefined}
      sx={{ display: 'grid', gridTemplateColumns: `repeat(auto-fill, minmax(${minWidth}px, 1fr))`, gap: 1.5 }}
    >
      {all.map((t) => {
        const isSelected = current === t.key;
        const isNone = none !== undefined && t.key === NONE_TILE;
        return (
          <Box key={t.key} sx={{ position: 'relative' }}>
            <ButtonBase
              role="option"
              aria-selected={isSelected}
              aria-label={t.label}
              disabled={disabled}
              onClick={() => {
                if (!isSelected) onSelect(t.key);
              }}
              sx={{
                width: '100%',
                display: 'block',
                textAlign: 'left',
                borderRadius: 1.5,
                overflow: 'hidden',
                border: 2,
                borderColor: isSelected ? 'primary.main' : 'divider',
                bgcolor: 'background.paper',
                opacity: disabled ? 0.5 : 1,
              }}
            >
              <Box
                sx={{
                  aspectRatio: aspect,
                  bgcolor: '#1f2430',
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                  overflow: 'hidden',
                }}
              >
                {t.videoURL ? (
                  <Box
                    component="video"
                    src={t.videoURL}
                    muted
                    loop
                    autoPlay
                    playsInline
                    sx={{ width: '100%', height: '100%', objectFit: 'cover' }}
                  />
                ) : t.imageURL ? (
                  <Box component="img" src={t.imageURL} alt="" loading="lazy" sx={{ width: '100%', height: '100%', objectFit: 'cover' }} />
                ) : isNone ? (
                  <BlockOutlinedIcon sx={{ color: 'grey.500', fontSize: 36 }} />
                ) : (
                  <ViewInArOutlinedIcon sx={{ color: 'grey.400', fontSize: 40 }} />
                )}
              </Box>
              <Box sx={{ px: 1, py: 0.75, display: 'flex', alignItems: 'center', gap: 0.5 }}>
                <Typography variant="body2" noWrap sx={{ flex: 1, fontWeight: isSelected ? 700 : 500 }}>
                  {t.label}
                </Typography>
                {isSelected && <CheckCircleIcon color="primary" fontSize="small" />}
              </Box>
              {t.badge && <Chip size="small" label={t.badge} color="warning" sx={{ position: 'absolute', top: 6, left: 6 }} />}
            </ButtonBase>
            {t.onDelete && !disabled && (
              <Tooltip title="Delete">
                <IconButton
                  size="small"
                  aria-label={`Delete ${t.label}`}
                  onClick={t.onDelete}
                  sx={{
                    position: 'absolute',
                    top: 4,
                    right: 4,
                    bgcolor: 'rgba(0,0,0,0.55)',
                    color: '#fff',
                    '&:hover': { bgcolor: 'rgba(0,0,0,0.75)' },
                  }}
                >
                  <DeleteOutlineIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
          </Box>
        );
      })}
      {upload && (
        <ButtonBase
          component="label"
          disabled={disabled}
          aria-label={upload.label}
          sx={{
            borderRadius: 1.5,
            border: 2,
            borderStyle: 'dashed',
            borderColor: 'divider',
            minHeight: 110,
            display: 'flex',
            flexDirection: 'column',
            gap: 0.5,
            p: 1,
            color: 'text.secondary',
            opacity: disabled ? 0.5 : 1,
          }}
        >
          <CloudUploadOutlinedIcon />
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {upload.label}
          </Typography>
          {upload.hint && (
            <Typography variant="caption" align="center">
              {upload.hint}
            </Typography>
          )}
          <input
            hidden
            type="file"
            accept={upload.accept}
            disabled={disabled}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) upload.onFile(file);
            }}
          />
        </ButtonBase>
      )}
    </Box>
  );
}
