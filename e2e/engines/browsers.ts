// The two other browser engines of the brief (non-negotiable 6), driven through maintained
// WebDriver clients because Playwright's own Firefox and WebKit are downloads (decision 120):
// Debian's Firefox ESR through WebDriver BiDi with puppeteer-core (no geckodriver needed), and
// Debian's WebKitGTK (MiniBrowser) through its W3C WebDriver, WebKitWebDriver, with
// selenium-webdriver, on an Xvfb display of its own. A missing binary fails with the apt package
// to install; nothing is skipped.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type AddressInfo } from 'node:net';
import puppeteer, { type Browser } from 'puppeteer-core';
import { Builder, type WebDriver } from 'selenium-webdriver';
import { firefoxPage, webkitPage, type EnginePage } from './engine-page';

export type EngineName = 'firefox' | 'webkit';

export const FIREFOX = '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
export const PULSEAUDIO = '/usr/bin/pulseaudio';
export const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
export const VIEWPORT = { width: 900, height: 700 };
const SESSION_TIMEOUT_MS = 20_000;

export interface Engine {
  name: EngineName;
  /** A fresh top-level page (the previous one is closed). */
  newPage(): Promise<EnginePage>;
  close(): Promise<void>;
}

function need(path: string, aptPackage: string): void {
  if (!existsSync(path))
    throw new Error(`${path} is missing: install it with \`sudo apt-get install -y ${aptPackage}\` (the cross-engine e2e suite needs it)`);
}

/**
 * A sound server of its own with a null sink (issue 35 item 5): headless Firefox never starts an
 * AudioContext without a sound device, so the server's voice could not be tapped there. Private
 * socket and runtime directory, so parallel jobs and the machine's own sound never meet.
 */
async function startSoundSink(): Promise<{ server: string; proc: ChildProcess }> {
  need(PULSEAUDIO, 'pulseaudio');
  const dir = mkdtempSync(join(tmpdir(), 'parla-pulse-'));
  const socket = join(dir, 'native');
  const proc = spawn(
    PULSEAUDIO,
    [
      '-n',
      '--daemonize=no',
      '--exit-idle-time=-1',
      '--use-pid-file=no',
      '--disable-shm=true',
      '--load=module-null-sink sink_name=parla_null',
      `--load=module-native-protocol-unix socket=${socket} auth-anonymous=1`,
    ],
    { stdio: 'ignore', env: { ...process.env, HOME: dir, XDG_RUNTIME_DIR: dir, PULSE_RUNTIME_PATH: dir } },
  );
  for (let i = 0; i < 100 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 50));
  if (!existsSync(socket)) {
    proc.kill();
    throw new Error('pulseaudio did not open its socket (the Firefox audio tap needs a sound sink)');
  }
  return { server: `unix:${socket}`, proc };
}

/** Firefox ESR with a fake microphone (a tone; see voice.spec.ts), autoplay allowed and a sound
 *  sink (a PulseAudio null sink), so the page's audio runs and can be tapped. */
async function launchFirefox(soundSink: boolean): Promise<Engine> {
  need(FIREFOX, 'firefox-esr');
  const sink = soundSink ? await startSoundSink() : null;
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    defaultViewport: VIEWPORT,
    ...(sink ? { env: { ...process.env, PULSE_SERVER: sink.server } } : {}),
    extraPrefsFirefox: {
      'media.navigator.streams.fake': true,
      'media.navigator.permission.disabled': true,
      'media.autoplay.default': 0,
      'media.autoplay.block-webaudio': false,
    },
  });
  let current: EnginePage | null = null;
  return {
    name: 'firefox',
    async newPage() {
      await current?.close();
      current = firefoxPage(await browser.newPage());
      return current;
    },
    close: async () => {
      await browser.close();
      sink?.proc.kill();
    },
  };
}

/** Starts Xvfb on the first free display; resolves with its number. */
function startXvfb(): Promise<{ display: string; proc: ChildProcess }> {
  need('/usr/bin/Xvfb', 'xvfb');
  const proc = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x900x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.stdio[3]!.once('data', (d: Buffer) => resolve({ display: `:${d.toString().trim()}`, proc }));
  });
}

/** A port the system has free (WebKitWebDriver needs one given; the job's own ten are taken). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function waitForDriver(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${url}/status`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`WebKitWebDriver did not answer on ${url}`);
}

/** WebKitGTK's MiniBrowser: mock capture devices (a microphone), autoplay allowed. */
async function launchWebKit(): Promise<Engine> {
  need(WEBKIT_DRIVER, 'webkit2gtk-driver');
  need(MINIBROWSER, 'webkit2gtk-driver');
  const xvfb = await startXvfb();
  const args = [
    '--automation',
    '--enable-media-stream=true',
    '--enable-mock-capture-devices=true',
    '--enable-webrtc=true',
    '--autoplay-policy=allow',
    '--media-playback-requires-user-gesture=false',
  ];
  // What the driver and its MiniBrowsers print (a web process that crashed, a failed command)
  // goes to test-results/webkit-driver.log, for a failure's diagnosis.
  const logDir = fileURLToPath(new URL('../../test-results/', import.meta.url));
  mkdirSync(logDir, { recursive: true });
  const log = openSync(join(logDir, 'webkit-driver.log'), 'a');
  const startDriver = async () => {
    const port = await freePort();
    // Its own process group: replacing a driver kills the MiniBrowser it started with it.
    const proc = spawn(WEBKIT_DRIVER, [`--port=${port}`], {
      stdio: ['ignore', log, log],
      detached: true,
      env: { ...process.env, DISPLAY: xvfb.display },
    });
    const url = `http://127.0.0.1:${port}`;
    await waitForDriver(url);
    return { proc, url };
  };
  let server = await startDriver();
  let driver: WebDriver | null = null;
  const quit = async () => {
    await driver?.quit().catch(() => undefined);
    driver = null;
  };
  const session = () =>
    new Builder()
      .usingServer(server.url)
      .withCapabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: MINIBROWSER, args } })
      .build();
  return {
    name: 'webkit',
    async newPage() {
      // One page per session: a new session is a fresh MiniBrowser (cheap, ~1 s). Under CI's load
      // a new session once never answered (the test's 60 s went by in its setup): after 20 s the
      // driver is replaced by a fresh one and the session asked again.
      await quit();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), SESSION_TIMEOUT_MS)));
      const first = session();
      driver = await Promise.race([first, late]);
      clearTimeout(timer);
      if (!driver) {
        first.then((d) => d.quit()).catch(() => undefined);
        killGroup(server.proc.pid);
        server = await startDriver();
        driver = await session();
      }
      await driver.manage().window().setRect(VIEWPORT);
      return webkitPage(driver);
    },
    async close() {
      await quit();
      killGroup(server.proc.pid);
      xvfb.proc.kill();
    },
  };
}

function killGroup(pid: number | undefined): void {
  try {
    if (pid) process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export function launchEngine(name: EngineName, opts: { soundSink?: boolean } = {}): Promise<Engine> {
  return name === 'firefox' ? launchFirefox(opts.soundSink ?? true) : launchWebKit();
}
