// Duplicate URLs in a collection (docs/decisions/407).
/**
 * The key two URLs of the same page share (duplicates in a collection, decision 407): scheme and
 * host lower-cased, `www.` and the default port dropped, no fragment, no trailing slash, no
 * utm_* tracking parameters, the other parameters sorted.
 */
export function normalizeKnowledgeUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return raw.trim().toLowerCase();
  }
  const host = u.hostname.toLowerCase().replace(/^www\./, '');
  const port =
    u.port && !((u.protocol === 'http:' && u.port === '80') || (u.protocol === 'https:' && u.port === '443')) ? `:${u.port}` : '';
  const params = [...u.searchParams.entries()].filter(([k]) => !/^utm_/i.test(k)).sort(([a], [b]) => a.localeCompare(b));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  const path = u.pathname.replace(/\/+$/, '') || '';
  return `${u.protocol}//${host}${port}${path}${query}`;
}
