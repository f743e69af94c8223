// The avatar photo's crop dialog (spec 2 §2, §9): a square crop with zoom, output at most 800 px.
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Slider from '@mui/material/Slider';
import Typography from '@mui/material/Typography';
import Cropper, { type Area } from 'react-easy-crop';
import { cropToSquare } from '../lib/crop-image';

export function PhotoCropDialog({ src, onCancel, onCropped }: { src: string | null; onCancel(): void; onCropped(photo: Blob): void }) {
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [error, setError] = useState<string | null>(null);

  const apply = async () => {
    if (!src || !area) return;
    try {
      onCropped(await cropToSquare(src, area));
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <Dialog open={Boolean(src)} onClose={onCancel} maxWidth="sm" fullWidth aria-labelledby="crop-title">
      <DialogTitle id="crop-title">Crop Avatar Photo</DialogTitle>
      <DialogContent>
        <Box sx={{ position: 'relative', height: 340, bgcolor: '#111' }}>
          {src && (
            <Cropper
              image={src}
              crop={crop}
              zoom={zoom}
              aspect={1}
              cropShape="rect"
              showGrid
              onCropChange={setCrop}
              onZoomChange={setZoom}
              onCropComplete={(_a, pixels) => setArea(pixels)}
            />
          )}
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 2 }}>
          <Typography id="zoom-label" variant="body2">
            Zoom
          </Typography>
          <Slider aria-labelledby="zoom-label" value={zoom} min={1} max={3} step={0.05} onChange={(_e, v) => setZoom(v as number)} />
        </Box>
        {error && <Typography color="error">{error}</Typography>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" onClick={() => void apply()} disabled={!area}>
          Crop
        </Button>
      </DialogActions>
    </Dialog>
  );
}
