// Portal settings are read once at start (they carry the application key every call needs).
import { createContext, useContext } from 'react';
import type { PortalSettings } from '@parla/shared/schemas/auth';

export const PortalSettingsContext = createContext<PortalSettings | null>(null);

export function usePortalSettings(): PortalSettings {
  const value = useContext(PortalSettingsContext);
  if (!value) throw new Error('PortalSettingsContext is missing');
  return value;
}

export async function fetchPortalSettings(): Promise<PortalSettings> {
  const res = await fetch('/api/portal_settings', { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw Object.assign(new Error(res.statusText || 'Error'), { status: res.status });
  return (await res.json()) as PortalSettings;
}
