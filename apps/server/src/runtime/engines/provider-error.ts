// A provider answered with a failure or could not be reached. The message is safe to log and
// to show the customer (no keys, no bodies beyond a short excerpt).
export class ProviderError extends Error {
  constructor(readonly provider: string, message: string, readonly status?: number) {
    super(`${provider}: ${message}`);
    this.name = 'ProviderError';
  }
}

export async function failure(provider: string, res: { status: number; text(): Promise<string> | string }): Promise<ProviderError> {
  let excerpt = '';
  try {
    excerpt = String(await res.text()).slice(0, 200).replace(/\s+/g, ' ');
  } catch {
    excerpt = '';
  }
  const hint = res.status === 401 || res.status === 403 ? 'the API key was refused' : `HTTP ${res.status}`;
  return new ProviderError(provider, excerpt ? `${hint}: ${excerpt}` : hint, res.status);
}
