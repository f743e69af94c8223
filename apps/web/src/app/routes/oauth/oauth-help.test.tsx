// Issue 17, item 2: /oauthhelp shows the callback address the server gives (PUBLIC_URL), not
// the address the page happens to be opened at, and the real address of each config.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { PortalSettings } from '@parla/shared/schemas/auth';
import type { ListOauthAppsResponse } from '@parla/shared/schemas/oauth';
import { PortalSettingsContext } from '../../../lib/portal-settings';
import OAuthHelpRoute from './oauth-help';

const settings: PortalSettings = {
  allowRegistration: true,
  skipHome: true,
  docsUrl: 'https://docs.example',
  productName: 'Parla',
  appKey: 'k',
  publicUrl: 'https://portal.example',
};

function renderHelp(apps: ListOauthAppsResponse['oauthApps']) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(['oauth-configs'], { oauthApps: apps } satisfies ListOauthAppsResponse);
  render(
    <PortalSettingsContext.Provider value={settings}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <OAuthHelpRoute />
        </MemoryRouter>
      </QueryClientProvider>
    </PortalSettingsContext.Provider>,
  );
}

afterEach(cleanup);

describe('the OAuth help page', () => {
  it("shows the server's callback address with a placeholder when there is no config", () => {
    expect(window.location.origin).not.toBe(settings.publicUrl);
    renderHelp([]);
    expect(screen.getByText('https://portal.example/api/oauth/callback/{config ID}')).toBeInTheDocument();
    expect(document.body.textContent).not.toContain(window.location.origin);
  });

  it("shows each config's real callback address, exactly as its card does", () => {
    renderHelp([
      {
        appId: 7,
        appName: 'Staff',
        partner: 'Google',
        clientId: 'c',
        clientSecret: '••••',
        oauthURL: 'https://accounts.google.com/o/oauth2/v2/auth',
        tokenIssueURL: 'https://oauth2.googleapis.com/token',
        callbackURL: 'https://portal.example/api/oauth/callback/7',
        created: '2026-01-01T00:00:00.000Z',
        updated: '2026-01-01T00:00:00.000Z',
      },
    ]);
    expect(screen.getAllByText('https://portal.example/api/oauth/callback/7').length).toBeGreaterThan(0);
    expect(screen.queryByText(/\{config ID\}/)).toBeNull();
  });
});
