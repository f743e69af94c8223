import type { ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import type { PortalSettings } from '@parla/shared/schemas/auth';
import { queryClient } from '../lib/query-client';
import { PortalSettingsContext } from '../lib/portal-settings';
import { theme } from './theme';

export function AppProvider({ settings, children }: { settings: PortalSettings; children: ReactNode }) {
  return (
    <PortalSettingsContext.Provider value={settings}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <QueryClientProvider client={queryClient}>
          <SnackbarProvider
            maxSnack={4}
            anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
            // Below the sticky app bar, so a toast never hides the navigation.
            classes={{ containerAnchorOriginTopCenter: 'parla-toasts' }}
          >
            {children}
          </SnackbarProvider>
        </QueryClientProvider>
      </ThemeProvider>
    </PortalSettingsContext.Provider>
  );
}
