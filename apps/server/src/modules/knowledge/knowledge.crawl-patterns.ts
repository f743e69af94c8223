// A crawl's path patterns (globs such as `/blog/**` or `/docs/*.html`), matched in linear time.
// picomatch turned them into backtracking regular expressions: `/*a*a*a*a*a*b` against a path of
// 110 characters held the event loop for 21.6 s (issue 33). Here a glob becomes an RE2 expression
// (re2js: RE2's automata in JavaScript, time linear in the path for a given pattern), so a
// pattern costs at most (path length × pattern length) steps, whatever it is. The shared schema
// also refuses patterns with more than CRAWL_PATTERN_MAX_WILDCARDS wildcards (decision 410).
// Syntax, as picomatch's with `dot` and `nocase` for the forms people write: `*` (any characters
// but /), `**` as a whole segment (any number of segments), `?`, `[abc]`/`[!abc]`, `{a,b}`, `\x`.
import { RE2JS } from 're2js';

/** Paths longer than this are not matched (the crawler does not follow such links). */
export const PATTERN_PATH_MAX_CHARS = 2048;

/** The RE2 expression of one glob. */
export function globToRe2(glob: string): string {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\' && i + 1 < glob.length) {
      out += RE2JS.quote(glob[++i]!);
    } else if (c === '*') {
      let j = i;
      while (glob[j + 1] === '*') j++;
      const segment = (i === 0 || glob[i - 1] === '/') && (j + 1 === glob.length || glob[j + 1] === '/');
      if (j - i === 1 && segment && j + 1 === glob.length && out.endsWith('/')) out = `${out.slice(0, -1)}(?:/.*)?`;
      else if (j - i === 1 && segment && j + 1 < glob.length) {
        out += '(?:[^/]*/)*'; // `**/`: any number of whole segments
        j++;
      } else if (j - i === 1 && segment) out += '.*';
      else out += segment ? '[^/]+' : '[^/]*'; // a `*` segment is not empty, as in picomatch
      i = j;
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      out += `[${negated ? '^' : ''}${body.replace(/\\/g, '\\\\').replace(/\[/g, '\\[')}]`;
      i = end;
    } else if (c === '{' && closes(glob, i)) {
      out += '(?:';
      braces++;
    } else if (c === ',' && braces > 0) {
      out += '|';
    } else if (c === '}' && braces > 0) {
      out += ')';
      braces--;
    } else {
      out += RE2JS.quote(c);
    }
  }
  return out;
}

/** Whether the brace at `at` has its closing brace. */
function closes(glob: string, at: number): boolean {
  let depth = 0;
  for (let i = at; i < glob.length; i++) {
    if (glob[i] === '\\') i++;
    else if (glob[i] === '{') depth++;
    else if (glob[i] === '}' && --depth === 0) return true;
  }
  return false;
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path; // a malformed escape: matched as written
  }
}

/** A matcher of a URL path against any of the patterns; null when there are none. A path also
 *  matches without its trailing slash (`/about/` as `/about`). */
export function pathMatcher(patterns: string[] | undefined): ((path: string) => boolean) | null {
  if (!patterns?.length) return null;
  const re = RE2JS.compile(patterns.map((p) => `(?:${globToRe2(p)})`).join('|'), RE2JS.CASE_INSENSITIVE | RE2JS.DOTALL);
  return (path) => {
    if (path.length > PATTERN_PATH_MAX_CHARS) return false;
    const decoded = decodePath(path);
    return re.testExact(decoded) || re.testExact(decoded.replace(/\/$/, '') || '/');
  };
}
