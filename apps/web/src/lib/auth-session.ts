// The signed-in session kept in the browser (spec 1 §3, §4; spec 4 §3).
// Remember me → localStorage; without it → sessionStorage (this tab only); admin-proxy
// sessions are never persisted (memory only). A stored session whose expiry, read as UTC, has
// passed is discarded on load.
import { useSyncExternalStore } from 'react';
import type { LoginResponse } from '@parla/shared/schemas/auth';
import type { UserType } from '@parla/shared/enums';

export interface AuthSession {
  authToken: string;
  userName: string;
  expiryDate: string;
  userType: UserType;
  adminProxy: boolean;
  /** true: kept for this tab only (sessionStorage). */
  useSession: boolean;
}

const KEY = 'parla.auth';
type Listener = () => void;
const listeners = new Set<Listener>();
let current: AuthSession | null = null;
let loaded = false;

/** Expiry dates are UTC; one without a zone is read as UTC, not local time. */
export function expiryTime(expiryDate: string): number {
  const iso = /[zZ]|[+-]\d\d:?\d\d$/.test(expiryDate) ? expiryDate : `${expiryDate}Z`;
  return Date.parse(iso);
}

export function isExpired(session: AuthSession, now = Date.now()): boolean {
  const t = expiryTime(session.expiryDate);
  return !Number.isFinite(t) || t <= now;
}

function read(storage: Storage): AuthSession | null {
  try {
    const raw = storage.getItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as AuthSession;
    if (typeof parsed.authToken !== 'string' || typeof parsed.expiryDate !== 'string') return null;
    return parsed;
  } catch {
    return null;
  }
}

function clearStorage() {
  try {
    localStorage.removeItem(KEY);
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing stored
  }
}

function clearTabStorage() {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing stored
  }
}

function load(): AuthSession | null {
  if (loaded) return current;
  loaded = true;
  const found = (typeof window !== 'undefined' && (read(sessionStorage) ?? read(localStorage))) || null;
  if (found && isExpired(found)) {
    clearStorage();
    current = null;
  } else {
    current = found;
  }
  return current;
}

function notify() {
  for (const l of listeners) l();
}

export const authStore = {
  get(): AuthSession | null {
    const s = load();
    if (s && isExpired(s)) {
      authStore.clear();
      return null;
    }
    return s;
  },

  signIn(res: LoginResponse, opts: { rememberMe: boolean }): AuthSession {
    const session: AuthSession = {
      authToken: res.sessionId,
      userName: res.userName,
      expiryDate: res.expiryDate,
      userType: res.userType,
      adminProxy: res.adminProxy,
      useSession: !opts.rememberMe,
    };
    if (res.adminProxy) {
      // The proxy tab was opened by the administrator's tab: it shares localStorage with it and
      // got a copy of its sessionStorage. Drop the copy, leave the administrator signed in.
      clearTabStorage();
    } else {
      clearStorage();
      const storage = opts.rememberMe ? localStorage : sessionStorage;
      storage.setItem(KEY, JSON.stringify(session));
    }
    loaded = true;
    current = session;
    notify();
    return session;
  },

  clear(): void {
    // Signing out of an admin-proxy tab must not sign the administrator out of theirs.
    if (current?.adminProxy) clearTabStorage();
    else clearStorage();
    loaded = true;
    if (current !== null) {
      current = null;
      notify();
    }
  },

  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

// Another tab signing out (or in) changes what this tab may do.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    // An admin-proxy session lives in this tab's memory only; other tabs' sign-ins do not touch it.
    if (e.key !== KEY || current?.adminProxy) return;
    loaded = false;
    load();
    notify();
  });
}

export function useAuth(): AuthSession | null {
  return useSyncExternalStore(authStore.subscribe, authStore.get, () => null);
}
