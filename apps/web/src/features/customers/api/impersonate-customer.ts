import { apiRequest } from '../../../lib/api-client';

/** A single-use, five-minute code that signs the administrator in as the customer. */
export function impersonateCustomer(userId: string): Promise<{ adminSessionId: string; email: string }> {
  return apiRequest('/api/admin/impersonate', { body: { userId } });
}
