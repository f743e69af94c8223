import { createTheme } from '@mui/material/styles';
import { MOBILE_BREAKPOINT_PX } from '@parla/shared/limits';

export const theme = createTheme({
  breakpoints: { values: { xs: 0, sm: MOBILE_BREAKPOINT_PX, md: 1024, lg: 1280, xl: 1600 } },
  palette: {
    primary: { main: '#4338ca', contrastText: '#ffffff' },
    secondary: { main: '#0f766e' },
    success: { main: '#15803d' },
    background: { default: '#f6f7fb', paper: '#ffffff' },
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '2rem', fontWeight: 700 },
    h2: { fontSize: '1.5rem', fontWeight: 700 },
    h3: { fontSize: '1.25rem', fontWeight: 600 },
    button: { fontWeight: 600 },
  },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiTextField: { defaultProps: { fullWidth: true, margin: 'normal' } },
    MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
  },
});

/** The media query of the spec's 760 px breakpoint (below it: mobile). */
export { MOBILE_QUERY } from '../config/media';
