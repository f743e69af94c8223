import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** A large account takes longer than an ordinary request. */
const EXPORT_TIMEOUT_MS = 120_000;

export function getAccountExport(): Promise<unknown> {
  return apiRequest<unknown>('/api/account/export', { timeoutMs: EXPORT_TIMEOUT_MS });
}

/** Saves the export as parla-account-YYYY-MM-DD.json (the name the server gives it). */
export function saveAccountExport(data: unknown, today = new Date()): void {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `parla-account-${today.toISOString().slice(0, 10)}.json`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function useDownloadAccountExport() {
  return useMutation({ mutationFn: getAccountExport, onSuccess: (data) => saveAccountExport(data) });
}
