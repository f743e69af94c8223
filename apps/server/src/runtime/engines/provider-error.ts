// A provider answered with a failure or could not be reached. The message is safe to log and
// to show the customer (no keys, no bodies beyond a short excerpt).
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    readonly status?: number,
  ) {
    super(`${provider}: ${message}`);
    this.name = 'ProviderError';
  }
}

/** The text with every secret of the request (its key, a callback secret) cut out, in the forms
 *  a provider may echo it back: as sent, JSON-escaped and URL-encoded. */
export function redact(text: string, secrets: readonly (string | null | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret || secret.length < 6) continue;
    for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]))
      out = out.split(form).join('[redacted]');
  }
  return out;
}

/** A provider's failure, with a short excerpt of its answer; `secrets` (what the request
 *  carried) never appear in it, even when the provider echoes them back. */
export async function failure(
  provider: string,
  res: { status: number; text(): Promise<string> | string },
  secrets: readonly (string | null | undefined)[] = [],
): Promise<ProviderError> {
  let excerpt = '';
  try {
    // Redacted before cutting, so a secret cut in half at the end is not left behind either.
    excerpt = redact(String(await res.text()), secrets)
      .slice(0, 200)
      .replace(/\s+/g, ' ');
  } catch {
    excerpt = '';
  }
  const hint = res.status === 401 || res.status === 403 ? 'the API key was refused' : `HTTP ${res.status}`;
  return new ProviderError(provider, excerpt ? `${hint}: ${excerpt}` : hint, res.status);
}

/** The voice of an answer could not be made (the TTS failed or hung): the answer itself is whole,
 *  so the user is told about the voice, not about the answer (decision 614). */
export class SpeechFailed extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'SpeechFailed';
  }
}
