// The one rule for a "way back" that travels through a URL (the OAuth gate's `back`): a path on
// our own origin, never another site (issue 33, item 6). Browsers read `//host`, `/\host` and,
// after dropping tabs and newlines, `/\t/host` as another host, and a path such as `/.//host`
// normalises to `//host`; so the raw text and its normalised form are both held to the rule.

// The WHATWG URL parser of the browser or Node; shared code is typed without either's library.
declare const URL: new (input: string, base?: string) => { origin: string; pathname: string; search: string };

/** Whether a path string may be sent as a Location on our origin: one "/" then neither "/" nor
 *  "\", no backslash or control character anywhere. */
function isStrictPath(path: string): boolean {
  return (
    path.startsWith('/') &&
    path[1] !== '/' &&
    path[1] !== '\\' &&
    !path.includes('\\') &&
    ![...path].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
  );
}

/** The path and query of `raw` on `origin` (e.g. `https://parla.example`), normalised as a
 *  browser would resolve it; null when it is not a strict path or leaves the origin. */
export function sameOriginPath(raw: string | undefined | null, origin: string): string | null {
  if (typeof raw !== 'string' || raw.length > 2000 || !isStrictPath(raw)) return null;
  let base: InstanceType<typeof URL>;
  let resolved: InstanceType<typeof URL>;
  try {
    base = new URL(origin);
    resolved = new URL(raw, base.origin);
  } catch {
    return null;
  }
  if (resolved.origin !== base.origin) return null;
  const path = `${resolved.pathname}${resolved.search}`;
  return isStrictPath(path) ? path : null;
}
