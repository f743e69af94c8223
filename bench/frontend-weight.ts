// Bench 6, front-end weight: the bytes the server really sends to Chromium on a first load.
// Both apps are built with their real settings (`vite build` into apps/*/dist, as `npm run build`
// does, with the .br/.gz files of decision 210), the real server serves them, and Debian's
// Chromium loads the pages with its cache off; the transfer size of every response (headers and
// body as they came over the wire: CDP Network.loadingFinished encodedDataLength) is added up.
//  - Portal, entry + sign-in: /react/login for a visitor. Entry + avatars: /react/avatars for a
//    signed-in customer with 3 avatars. Code (document, scripts, styles, fonts) against the goal
//    ≤ 300 KB each; the API answers are listed beside it.
//  - Player: /avatar/{id} of an upper-body avatar; its first load is the page and what the page
//    itself names (initiator: parser), before the renderer and the session it then imports.
//    Goal ≤ 100 KB.
// Peers in the same run: the same loads asking for no compression (Accept-Encoding: identity),
// i.e. what was sent before decision 210; and the budgets (design/references).
// Peer check (issue 37): each load's code (document, scripts, styles, fonts) must be the same in
// both runs once decompressed: the same addresses, and per address the same SHA-256 of the body
// Chromium decoded (CDP Network.getResponseBody, read after the load). A difference fails the bench.
//
//   node --import tsx bench/frontend-weight.ts     (BENCH_VERBOSE=1 lists every response)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startApiServer } from './api-support';
import { ROOT, table, verdict, writeSection } from './report-support';

const PORTAL_GOAL_KB = 300;
const PLAYER_GOAL_KB = 100;
const LIGHTEST_WIDGET_KB = 130;
const CODE = new Set(['Document', 'Script', 'Stylesheet', 'Font']);

interface Transfer {
  url: string;
  type: string;
  initiator: string;
  encoding: string;
  bytes: number;
  /** CDP's request id. */
  id: string;
  /** SHA-256 of the decoded body (code only). */
  sha?: string;
}

function build(workspace: string): void {
  execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: join(ROOT, workspace),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Every response of one page load, with its transfer size, the cache off. */
async function load(page: Page, go: () => Promise<unknown>): Promise<Transfer[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const initiators = new Map<string, string>();
  const meta = new Map<string, Omit<Transfer, 'bytes' | 'id'>>();
  const out: Transfer[] = [];
  cdp.on('Network.requestWillBeSent', (e) => initiators.set(e.requestId, e.initiator.type));
  cdp.on('Network.responseReceived', (e) => {
    const h = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    meta.set(e.requestId, {
      url: e.response.url,
      type: e.type,
      initiator: initiators.get(e.requestId) ?? '',
      encoding: h['content-encoding'] ?? '',
    });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const m = meta.get(e.requestId);
    if (m) out.push({ ...m, bytes: e.encodedDataLength, id: e.requestId });
  });
  await go();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  // After the load: the decoded bodies of the code, for the check against the other run.
  for (const t of out.filter((x) => CODE.has(x.type))) {
    const b = await cdp.send('Network.getResponseBody', { requestId: t.id });
    t.sha = createHash('sha256')
      .update(Buffer.from(b.body, b.base64Encoded ? 'base64' : 'utf8'))
      .digest('hex');
  }
  await cdp.detach();
  return out;
}

const kb = (list: Transfer[]) => list.reduce((a, t) => a + t.bytes, 0) / 1024;
const code = (list: Transfer[]) => list.filter((t) => CODE.has(t.type));
const api = (list: Transfer[]) => list.filter((t) => t.type === 'XHR' || t.type === 'Fetch');

interface Loads {
  login: Transfer[];
  avatars: Transfer[];
  player: Transfer[];
}

async function measure(browser: Browser, base: string, avatarPath: string, identity: boolean): Promise<Loads> {
  const context = async (): Promise<BrowserContext> => {
    const c = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
    if (identity) await c.setExtraHTTPHeaders({ 'accept-encoding': 'identity' });
    return c;
  };
  const visitor = await context();
  const lp = await visitor.newPage();
  const login = await load(lp, () => lp.goto('/react/login'));
  if (!(await lp.getByRole('button', { name: 'Sign In' }).isVisible())) throw new Error('the sign-in page did not show');
  await lp.getByLabel('Email').fill('bench@example.com');
  await lp.getByRole('textbox', { name: 'Password', exact: true }).fill('bench password 1');
  await lp.getByRole('button', { name: 'Sign In' }).click();
  await lp.waitForURL(/\/react\/avatars$/);
  await lp.waitForLoadState('networkidle');
  const avatars = await load(lp, () => lp.reload());
  if ((await lp.getByRole('article').count()) === 0) throw new Error('the avatars screen shows no card');
  await visitor.close();

  const viewer = await context();
  const pp = await viewer.newPage();
  const player = await load(pp, () => pp.goto(avatarPath));
  await viewer.close();
  return { login, avatars, player };
}

/** Both runs' code of one load must be the same files once decompressed. */
function sameCode(what: string, sent: Transfer[], raw: Transfer[]): number {
  const files = (l: Transfer[]) =>
    code(l)
      .map((t) => `${t.url} ${t.sha}`)
      .sort();
  const a = files(sent);
  const b = files(raw);
  const diff = [...a.filter((x) => !b.includes(x)), ...b.filter((x) => !a.includes(x))];
  if (diff.length) throw new Error(`${what}: the compressed and uncompressed loads differ in ${diff.join(', ')}`);
  return a.length;
}

async function main(): Promise<void> {
  build('apps/web');
  build('apps/player');
  const server = await startApiServer(3, { serveWeb: true });
  const card = (await (await fetch(`${server.url}/api/avatar/list`, { headers: { authorization: server.authorization } })).json()) as {
    agents: { id: string; token: string }[];
  };
  const avatar = card.agents[0]!;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--autoplay-policy=no-user-gesture-required'],
  });
  const avatarPath = `/avatar/${avatar.id}?token=${avatar.token}`;
  const raw = await measure(browser, server.url, avatarPath, true);
  const sent = await measure(browser, server.url, avatarPath, false);
  await browser.close();
  await server.close();
  const checked = (['login', 'avatars', 'player'] as const).map((k) => sameCode(k, sent[k], raw[k]));

  const firstPlayer = (l: Transfer[]) => code(l).filter((t) => t.type === 'Document' || t.initiator === 'parser');
  const lazyPlayer = (l: Transfer[]) => code(l).filter((t) => t.type !== 'Document' && t.initiator !== 'parser');
  const rows = [
    { name: 'portal: entry + sign-in (code)', now: kb(code(sent.login)), before: kb(code(raw.login)), goal: PORTAL_GOAL_KB },
    { name: 'portal: entry + avatars (code)', now: kb(code(sent.avatars)), before: kb(code(raw.avatars)), goal: PORTAL_GOAL_KB },
    { name: 'portal: avatars API answers', now: kb(api(sent.avatars)), before: kb(api(raw.avatars)), goal: 0 },
    {
      name: 'player: first load, before a renderer',
      now: kb(firstPlayer(sent.player)),
      before: kb(firstPlayer(raw.player)),
      goal: PLAYER_GOAL_KB,
    },
    { name: 'player: renderer and session, fetched after', now: kb(lazyPlayer(sent.player)), before: kb(lazyPlayer(raw.player)), goal: 0 },
  ];
  const f = (v: number) => `${v.toFixed(1)} KB`;
  const uncompressed = [...code(sent.login), ...code(sent.avatars), ...firstPlayer(sent.player)].filter(
    (t) => t.type === 'Script' && !t.encoding,
  );
  console.log('frontend-weight: bytes sent to Chromium (transfer sizes, cache off)');
  for (const r of rows) {
    const goal = r.goal ? `  goal ≤ ${r.goal} KB: ${verdict(r.now <= r.goal)}` : '';
    console.log(`  ${r.name.padEnd(46)} ${f(r.now).padStart(9)}   (uncompressed ${f(r.before)})${goal}`);
  }
  const player = rows[3]!.now;
  console.log(
    `  player against the lightest chat widget in the field (${LIGHTEST_WIDGET_KB} KB): ${(player / LIGHTEST_WIDGET_KB).toFixed(2)}`,
  );
  for (const t of lazyPlayer(sent.player))
    console.log(`    after the first load: ${t.url.replace(/^.*\//, '').padEnd(36)} ${f(t.bytes / 1024)}`);
  if (process.env.BENCH_VERBOSE)
    for (const [k, l] of Object.entries(sent))
      for (const t of l)
        console.log(
          `    ${k} ${t.type} ${t.initiator} ${t.encoding || '-'} ${(t.bytes / 1024).toFixed(1)} KB ${t.url.replace(/^https?:\/\/[^/]+/, '')}`,
        );
  console.log(`  checked: the same code decompressed in both runs (${checked.join(', ')} files, SHA-256 each)`);
  if (uncompressed.length) console.log(`  scripts sent without compression: ${uncompressed.map((t) => t.url).join(', ')}`);

  writeSection(
    'frontend-weight',
    'Bench 6 — front-end weight',
    `Bytes the server sends to Debian's Chromium on a first load (cache off): the transfer size of each
response (CDP \`encodedDataLength\`, headers and body as they came over the wire), real builds served
by the real server. Peer in the same run: the same loads asking for no compression
(\`Accept-Encoding: identity\`), which is what every browser got before decision 210. Checked: each load's code is
the same files in both runs once decompressed (${checked.join(', ')} files; SHA-256 of each body as Chromium decoded it).

${table(
  ['', 'sent', 'uncompressed (peer)', 'sent / uncompressed', 'goal'],
  rows.map((r) => [
    r.name,
    `**${f(r.now)}**`,
    f(r.before),
    r.before ? (r.now / r.before).toFixed(2) : '—',
    r.goal ? `≤ ${r.goal} KB: ${verdict(r.now <= r.goal)}` : '',
  ]),
)}

Player against the lightest chat widget in the field (${LIGHTEST_WIDGET_KB} KB): ${(player / LIGHTEST_WIDGET_KB).toFixed(2)}.
Fetched by the player after its first load: ${
      lazyPlayer(sent.player)
        .map((t) => `${t.url.replace(/^.*\//, '')} ${f(t.bytes / 1024)}`)
        .join(', ') || 'nothing'
    }.
Scripts sent without compression: ${uncompressed.length}.

    node --import tsx bench/frontend-weight.ts`,
  );
  if (rows.some((r) => r.goal && r.now > r.goal)) process.exitCode = 1;
}

await main();
