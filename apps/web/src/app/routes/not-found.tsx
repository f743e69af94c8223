import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../config/paths';

export default function NotFoundRoute() {
  return (
    <Container maxWidth="sm" sx={{ py: 10, textAlign: 'center' }}>
      <Typography variant="h1">Page not found</Typography>
      <Typography color="text.secondary" sx={{ mt: 2 }}>
        The page you asked for does not exist.
      </Typography>
      <Button component={RouterLink} to={paths.home} variant="contained" sx={{ mt: 4 }}>
        Go Home
      </Button>
    </Container>
  );
}
