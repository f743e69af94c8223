import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';

export function PageLoading({ label }: { label?: string }) {
  return (
    <Box
      role="status"
      sx={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2, py: 8 }}
    >
      <CircularProgress />
      {label && <Typography color="text.secondary">{label}</Typography>}
    </Box>
  );
}
