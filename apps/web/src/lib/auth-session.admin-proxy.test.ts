import { beforeEach, describe, expect, it } from 'vitest';
import { authStore } from './auth-session';

const future = new Date(Date.now() + 3_600_000).toISOString();
const KEY = 'parla.auth';

describe('admin-proxy sessions', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('leaves the administrator\u2019s stored session alone when a proxy tab signs in and out', () => {
    const admin = { authToken: 'admin-token', userName: 'Admin', expiryDate: future, userType: 'ADMIN', adminProxy: false, useSession: false };
    localStorage.setItem(KEY, JSON.stringify(admin));
    // window.open copies the opener's sessionStorage into the new tab.
    sessionStorage.setItem(KEY, JSON.stringify({ ...admin, useSession: true }));

    authStore.signIn(
      { status: 'OK', sessionId: 'proxy-token', userName: 'Customer', expiryDate: future, userType: 'CUSTOMER', adminProxy: true },
      { rememberMe: false },
    );
    expect(authStore.get()?.authToken).toBe('proxy-token');
    expect(sessionStorage.getItem(KEY)).toBeNull();
    expect(JSON.parse(localStorage.getItem(KEY)!).authToken).toBe('admin-token');

    // Another tab writing the shared storage does not replace the proxy session.
    window.dispatchEvent(new StorageEvent('storage', { key: KEY }));
    expect(authStore.get()?.authToken).toBe('proxy-token');

    authStore.clear();
    expect(authStore.get()?.authToken).not.toBe('proxy-token');
    expect(JSON.parse(localStorage.getItem(KEY)!).authToken).toBe('admin-token');
  });

  it('still replaces a stored session on an ordinary sign-in', () => {
    localStorage.setItem(KEY, JSON.stringify({ authToken: 'old', expiryDate: future }));
    authStore.signIn(
      { status: 'OK', sessionId: 'new-token', userName: 'Casey', expiryDate: future, userType: 'CUSTOMER', adminProxy: false },
      { rememberMe: false },
    );
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(JSON.parse(sessionStorage.getItem(KEY)!).authToken).toBe('new-token');
  });
});
