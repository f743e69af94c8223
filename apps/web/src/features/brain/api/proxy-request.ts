// POST /api/proxy: the provider calls the spec routes through the server (Deepgram token and
// models, Neuphonic voices). A masked key with the avatar id uses the avatar's stored key.
import type { ProxyRequest, ProxyResponse } from '@parla/shared/schemas/brain';
import { apiRequest } from '../../../lib/api-client';

export function proxyRequest(body: ProxyRequest, signal?: AbortSignal): Promise<ProxyResponse> {
  return apiRequest<ProxyResponse>('/api/proxy', { body, signal });
}
