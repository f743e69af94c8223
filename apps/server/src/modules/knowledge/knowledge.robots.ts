// robots.txt (RFC 9309): the group for our product token, else '*'; the longest matching rule
// wins, Allow on a tie; '*' matches any run of characters and '$' anchors the end.

export const CRAWLER_TOKEN = 'parlabot';
export const CRAWLER_USER_AGENT = 'ParlaBot/1.0 (knowledge base crawler)';

interface Rule {
  allow: boolean;
  pattern: string;
}

export interface Robots {
  allowed(pathAndQuery: string): boolean;
}

export const ALLOW_ALL: Robots = { allowed: () => true };
export const DISALLOW_ALL: Robots = { allowed: () => false };

function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const re = new RegExp(`^${body.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}${anchored ? '$' : ''}`);
  return re.test(path);
}

function decodeSafe(s: string): string {
  try {
    return decodeURI(s);
  } catch {
    return s;
  }
}

export function parseRobots(text: string): Robots {
  const groups: { agents: string[]; rules: Rule[] }[] = [];
  let current: { agents: string[]; rules: Rule[] } | null = null;
  let lastWasAgent = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (key === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current) continue;
    if (key === 'allow' || key === 'disallow') {
      if (key === 'disallow' && value === '') continue;
      current.rules.push({ allow: key === 'allow', pattern: decodeSafe(value) });
    }
  }
  const ours = groups.filter((g) => g.agents.some((a) => a.split('/')[0] === CRAWLER_TOKEN));
  const chosen = ours.length ? ours : groups.filter((g) => g.agents.includes('*'));
  const rules = chosen.flatMap((g) => g.rules);
  return {
    allowed(pathAndQuery: string): boolean {
      const path = decodeSafe(pathAndQuery || '/');
      if (path === '/robots.txt') return true;
      let best: Rule | null = null;
      for (const r of rules) {
        if (!matches(r.pattern, path)) continue;
        if (!best || r.pattern.length > best.pattern.length || (r.pattern.length === best.pattern.length && r.allow)) best = r;
      }
      return best ? best.allow : true;
    },
  };
}
