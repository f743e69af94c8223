import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MailStatusResponse } from '@parla/shared/schemas/admin';
import { apiRequest } from '../../../lib/api-client';

export function getMailStatus(): Promise<MailStatusResponse> {
  return apiRequest('/api/admin/mail_status');
}

export function getMailStatusQueryOptions() {
  return queryOptions({ queryKey: ['mail-status'], queryFn: getMailStatus, staleTime: 0 });
}

export function useMailStatus() {
  return useQuery(getMailStatusQueryOptions());
}
