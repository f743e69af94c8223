// Start: read the portal settings (they carry the application key), then render the portal.
import './lib/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { gatewayUnreachableMessage } from '@parla/shared/errors';
import { configureApiClient } from './lib/api-client';
import { authStore } from './lib/auth-session';
import { logger } from './lib/logger';
import { fetchPortalSettings } from './lib/portal-settings';
import { queryClient } from './lib/query-client';
import { AppProvider } from './app/provider';
import { createRouter } from './app/router';
import { StartupError } from './app/startup-error';

const root = createRoot(document.getElementById('root')!);

async function start() {
  try {
    const settings = await fetchPortalSettings();
    document.title = settings.productName;
    configureApiClient({
      appKey: settings.appKey,
      onUnauthorized: () => {
        authStore.clear();
        queryClient.clear();
      },
    });
    const router = createRouter();
    root.render(
      <StrictMode>
        <AppProvider settings={settings}>
          <RouterProvider router={router} />
        </AppProvider>
      </StrictMode>,
    );
  } catch (err) {
    logger.error('portal settings unavailable', err);
    const status = (err as { status?: number }).status;
    const message = status ? gatewayUnreachableMessage(status, (err as Error).message) : undefined;
    root.render(<StartupError message={message} onRetry={() => void start()} />);
  }
}

void start();
