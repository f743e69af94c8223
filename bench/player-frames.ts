/// <reference lib="dom" />
// Bench 11 — what an open player costs the visitor's machine (decision 121). Debian's Chromium
// without a GPU (its WebGL is SwiftShader, drawn by the CPU, as for a visitor without a usable
// GPU) opens the built player on the real server (the e2e launcher) in conversation, at rest,
// 1024 × 640. For each avatar it measures the machine's busy CPU seconds per second the page is
// open (/proc/stat: run it on a quiet machine) and the frames drawn, for the player as it is
// (`render` unset) and for its peer in the same run, the same page with `render=full`: every
// display frame drawn, multisampling and shadows, which is the stage before decision 121.
// Goal: a 3D page at rest costs at most half the CPU of its peer.
// Peer check (issue 37): both pages must show the same thing, drawn another way: each reached the
// ready stage in conversation, and the two agree on the stage's avatar type and state, the face's
// label (the avatar's name) and the kind of canvas the frames are drawn on (the contexts whose
// clears were counted: 2D or WebGL2). Frame counts and render profiles differ by design and are not
// compared. A difference fails the bench.
//
//   npm run build (or just the player), then node --import tsx bench/player-frames.ts
//   (BENCH_FRAMES_SECONDS=10 seconds measured per page, E2E_PORT for the server's ports)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';
import { ROOT, table, verdict, writeSection } from './report-support';

const SECONDS = Number(process.env.BENCH_FRAMES_SECONDS ?? 10);
const PORT = Number(process.env.E2E_PORT ?? 8181);
const AVATARS = [
  { id: 'img-amara', what: '2D portrait', scene: '&backgroundId=bg-office' },
  { id: 'ub-aisha', what: '3D upper body', scene: '&backgroundId=bg-office' },
  { id: 'fb-ethan', what: '3D full body in its environment', scene: '&environmentId=env-lounge' },
];

async function startServer(): Promise<() => void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'e2e/support/start-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, E2E_PORT: String(PORT) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('e2e server on') && resolve());
    child.on('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
  return () => child.kill('SIGTERM');
}

/** The machine's busy CPU seconds so far (user, nice, system, irq, softirq). */
function busySeconds(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return (f[0]! + f[1]! + f[2]! + f[5]! + f[6]!) / 100;
}

/** Counts frames from outside the player: a 2D canvas is cleared once per frame, and so is a
 *  WebGL canvas (twice with a shadow pass: the count is of clears, said as such). */
function countClears(): void {
  const w = window as unknown as { clears: number; kinds: Record<string, true> };
  w.clears = 0;
  w.kinds = {};
  for (const proto of [CanvasRenderingContext2D.prototype, WebGL2RenderingContext.prototype] as {
    clearRect?: unknown;
    clear?: unknown;
  }[]) {
    const name = 'clearRect' in proto ? 'clearRect' : 'clear';
    const original = proto[name as 'clear'] as (...a: unknown[]) => void;
    proto[name as 'clear'] = function (this: unknown, ...a: unknown[]) {
      w.clears++;
      w.kinds[name === 'clearRect' ? '2d' : 'webgl2'] = true;
      return original.apply(this, a);
    };
  }
}

/** What the page shows, as compared with its peer (see the header). */
async function shown(page: Page): Promise<string> {
  const stage = page.getByTestId('stage');
  const kinds = await page.evaluate(() => Object.keys((window as unknown as { kinds: Record<string, true> }).kinds).sort());
  return JSON.stringify({
    type: await stage.getAttribute('data-avatar-type'),
    state: await stage.getAttribute('data-state'),
    face: await page.getByTestId('avatar-face').getAttribute('aria-label'),
    canvas: kinds,
  });
}

async function measure(page: Page, url: string): Promise<{ cores: number; clears: number; profile: string; shown: string }> {
  await page.goto(url);
  await page.getByTestId('stage').and(page.locator('[data-state="ready"]')).waitFor({ timeout: 90_000 });
  // The greeting said, the face at rest; a little more for the first frames' shader compiles.
  await page
    .getByTestId('captions')
    .waitFor({ state: 'hidden', timeout: 60_000 })
    .catch(() => undefined);
  await page.waitForTimeout(2000);
  const c0 = await page.evaluate(() => (window as unknown as { clears: number }).clears);
  const b0 = busySeconds();
  const t0 = Date.now();
  await page.waitForTimeout(SECONDS * 1000);
  const cores = (busySeconds() - b0) / ((Date.now() - t0) / 1000);
  const clears = ((await page.evaluate(() => (window as unknown as { clears: number }).clears)) - c0) / SECONDS;
  const profile = (await page.getByTestId('avatar-face').getAttribute('data-render-profile')) ?? '?';
  return { cores, clears, profile, shown: await shown(page) };
}

const stop = await startServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const rows: (string | number)[][] = [];
let met = true;
try {
  for (const a of AVATARS) {
    const results = [];
    for (const render of ['', '&render=full']) {
      const page = await browser.newPage({ viewport: { width: 1024, height: 640 } });
      await page.addInitScript(countClears);
      results.push(
        await measure(
          page,
          `http://127.0.0.1:${PORT}/avatar/preview?appearanceId=${a.id}&connect=true&hideChatHistory=true&hideChatInput=true${a.scene}${render}`,
        ),
      );
      await page.close();
    }
    const [ours, peer] = results as [Awaited<ReturnType<typeof measure>>, Awaited<ReturnType<typeof measure>>];
    if (ours.shown !== peer.shown) throw new Error(`${a.id}: Parla's page shows ${ours.shown}, its peer's ${peer.shown}`);
    console.log(`${a.id}: both pages show ${ours.shown}`);
    const ratio = ours.cores / peer.cores;
    if (a.id !== 'img-amara') met &&= ratio <= 0.5;
    rows.push([
      `${a.what} (${a.id})`,
      `${ours.cores.toFixed(2)} (${ours.profile}, ${ours.clears.toFixed(1)} clears/s)`,
      `${peer.cores.toFixed(2)} (${peer.profile}, ${peer.clears.toFixed(1)} clears/s)`,
      `${ratio.toFixed(2)}×`,
    ]);
    console.log(rows.at(-1)!.join(' | '));
  }
} finally {
  await browser.close();
  stop();
}
const body = `Debian's Chromium, software WebGL (SwiftShader), 1024 × 640, the player in conversation at
rest, ${SECONDS} s per page: the machine's busy cores while the page is open (a quiet machine: the
server is idle), and the canvas clears a second (one per frame; two with a shadow pass). Peer: the
same page with \`render=full\` (every display frame, multisampling, shadows: the stage before
decision 121). Checked (a difference fails the bench): both pages reached the ready stage and agree on
the avatar type, the stage's state, the face's label and the kind of canvas drawn on (2D or WebGL2).
Goal: a 3D page at most half its peer's CPU.

${table(['avatar', 'Parla: cores busy', 'peer (render=full)', 'ratio'], rows)}

Goal (every 3D page at most half its peer's CPU): ${verdict(met)}.

\`node --import tsx bench/player-frames.ts\` after \`npm run build\`.`;
console.log(body);
writeSection('player-frames', 'Bench 11 — what an open player costs the visitor’s machine', body);
