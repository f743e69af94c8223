// A custom OpenAI-compatible base URL for the LLM engine (beyond spec 3, which offers the ten
// providers' addresses only; docs/decisions/302-custom-llm-base-url.md). Offered in Composite
// mode only; its models come from GET {base}/models through the server's guarded client. The
// shape is checked here (browser and server alike); whether the server may reach the address
// (https, or http for an allow-listed host; never a private address) is the server's check.
import { z } from 'zod';

/** The provider value saved in the llm block (and held by llmDetails.llmProvider). */
export const CUSTOM_LLM_PROVIDER = 'custom';
export const CUSTOM_LLM_LABEL = 'Custom (OpenAI-compatible)';
export const CUSTOM_LLM_URL_MAX_CHARS = 500;

export const CUSTOM_LLM_MESSAGES = {
  baseUrlInvalid: 'Enter the base URL of an OpenAI-compatible API, such as https://llm.example.com/v1 (no user name, query or fragment).',
  compositeOnly: 'A custom base URL can be used in Composite mode only.',
  httpsRequired: 'The base URL must start with https://.',
  /** Followed by the guard's reason, e.g. "private or reserved address". */
  refused: 'This base URL cannot be reached from the server',
  assistantsOpenAiOnly: 'Assistants are offered with the OpenAI base URL only.',
  modelsUnavailable: 'The model list could not be fetched: type the model name.',
} as const;

// scheme :// host (name, IPv4 or [IPv6]) [:port] [/path of plain characters]
const CUSTOM_URL =
  /^(https?):\/\/([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(\d{1,5}))?(\/[a-z0-9._~/-]*)?$/i;

/** The URL as saved: lower-case scheme and host, no default port, no trailing slash. */
export function normaliseCustomBaseUrl(raw: string): string {
  const m = CUSTOM_URL.exec(raw.trim());
  if (!m) return raw.trim();
  const scheme = m[1]!.toLowerCase();
  const port = m[3] && !((scheme === 'https' && m[3] === '443') || (scheme === 'http' && m[3] === '80')) ? `:${Number(m[3])}` : '';
  return `${scheme}://${m[2]!.toLowerCase()}${port}${(m[4] ?? '').replace(/\/+$/, '')}`;
}

/** The message for a base URL of the wrong shape, or null. */
export function customBaseUrlIssue(raw: string | null | undefined): string | null {
  const v = (raw ?? '').trim();
  const m = CUSTOM_URL.exec(v);
  if (!m || v.length > CUSTOM_LLM_URL_MAX_CHARS) return CUSTOM_LLM_MESSAGES.baseUrlInvalid;
  if (m[3] !== undefined && (Number(m[3]) < 1 || Number(m[3]) > 65535)) return CUSTOM_LLM_MESSAGES.baseUrlInvalid;
  if (/(^|\/)\.\.?(\/|$)/.test(m[4] ?? '')) return CUSTOM_LLM_MESSAGES.baseUrlInvalid;
  return null;
}

/** The custom base URL field: checked and normalised. */
export const customLlmBaseUrl = z
  .string({ error: CUSTOM_LLM_MESSAGES.baseUrlInvalid })
  .trim()
  .superRefine((v, ctx) => {
    const issue = customBaseUrlIssue(v);
    if (issue) ctx.addIssue({ code: 'custom', message: issue });
  })
  .transform(normaliseCustomBaseUrl);
