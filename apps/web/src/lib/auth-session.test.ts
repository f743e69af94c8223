import { beforeEach, describe, expect, it, vi } from 'vitest';

const login = (over: Partial<Record<string, unknown>> = {}) => ({
  status: 'OK' as const,
  sessionId: 'token-1',
  userName: 'Ada Lovelace',
  expiryDate: new Date(Date.now() + 3_600_000).toISOString(),
  userType: 'CUSTOMER' as const,
  adminProxy: false,
  ...over,
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  vi.resetModules();
});

describe('the stored session', () => {
  it('reads an expiry without a zone as UTC', async () => {
    const { expiryTime } = await import('./auth-session');
    expect(expiryTime('2030-01-01T10:00:00')).toBe(Date.UTC(2030, 0, 1, 10, 0, 0));
    expect(expiryTime('2030-01-01T10:00:00Z')).toBe(Date.UTC(2030, 0, 1, 10, 0, 0));
    expect(expiryTime('2030-01-01T12:00:00+02:00')).toBe(Date.UTC(2030, 0, 1, 10, 0, 0));
  });

  it('keeps a Remember me session in local storage and the other in session storage', async () => {
    const { authStore } = await import('./auth-session');
    authStore.signIn(login(), { rememberMe: true });
    expect(localStorage.getItem('parla.auth')).toContain('token-1');
    authStore.signIn(login({ sessionId: 'token-2' }), { rememberMe: false });
    expect(localStorage.getItem('parla.auth')).toBeNull();
    expect(sessionStorage.getItem('parla.auth')).toContain('token-2');
  });

  it('never stores an admin-proxy session', async () => {
    const { authStore } = await import('./auth-session');
    const s = authStore.signIn(login({ adminProxy: true }), { rememberMe: true });
    expect(s.adminProxy).toBe(true);
    expect(localStorage.getItem('parla.auth')).toBeNull();
    expect(sessionStorage.getItem('parla.auth')).toBeNull();
    expect(authStore.get()?.authToken).toBe('token-1');
  });

  it('discards a stored session whose expiry has passed', async () => {
    localStorage.setItem('parla.auth', JSON.stringify({ ...login(), authToken: 'old', expiryDate: '2020-01-01T00:00:00' }));
    const { authStore } = await import('./auth-session');
    expect(authStore.get()).toBeNull();
    expect(localStorage.getItem('parla.auth')).toBeNull();
  });
});

describe('the API client', () => {
  it('sends the key and token, and signs out on a 401', async () => {
    const { authStore } = await import('./auth-session');
    const { apiRequest, configureApiClient, ApiError } = await import('./api-client');
    authStore.signIn(login(), { rememberMe: true });
    const onUnauthorized = vi.fn(() => authStore.clear());
    configureApiClient({ appKey: 'key-1', onUnauthorized });
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ status: 'ERROR', code: 6, errors: ['Authentication failed.'] }), { status: 401 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiRequest('/api/account_info')).rejects.toBeInstanceOf(ApiError);
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer key-1 token-1');
    expect(onUnauthorized).toHaveBeenCalledOnce();
    expect(authStore.get()).toBeNull();
    vi.unstubAllGlobals();
  });

  it('turns an unreachable gateway into the spec message', async () => {
    const { apiRequest, configureApiClient } = await import('./api-client');
    configureApiClient({ appKey: 'k', onUnauthorized: () => {} });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })),
    );
    await expect(apiRequest('/api/x')).rejects.toMatchObject({ errors: ['Error Code: 502#Bad Gateway#Unable to reach the gateway'] });
    vi.unstubAllGlobals();
  });
});

describe('an admin-proxy tab', () => {
  it('leaves the administrator\u2019s stored session alone when it signs in and out', async () => {
    const admin = { ...login({ userType: 'ADMIN' }), authToken: 'admin-token', useSession: false };
    localStorage.setItem('parla.auth', JSON.stringify(admin));
    // window.open copies the opener's sessionStorage into the new tab.
    sessionStorage.setItem('parla.auth', JSON.stringify({ ...admin, useSession: true }));
    const { authStore } = await import('./auth-session');

    authStore.signIn(login({ sessionId: 'proxy-token', adminProxy: true }), { rememberMe: false });
    expect(authStore.get()?.authToken).toBe('proxy-token');
    expect(sessionStorage.getItem('parla.auth')).toBeNull();
    expect(localStorage.getItem('parla.auth')).toContain('admin-token');

    // The administrator's tab writing the shared storage does not replace the proxy session.
    window.dispatchEvent(new StorageEvent('storage', { key: 'parla.auth' }));
    expect(authStore.get()?.authToken).toBe('proxy-token');

    authStore.clear();
    expect(localStorage.getItem('parla.auth')).toContain('admin-token');
  });
});
