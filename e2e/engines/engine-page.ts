// One small page interface over the two WebDriver clients, so the specs read the same in every
// engine: run a function in a document (the top one, or the player's iframe), type and click
// with real input events, and take screenshots of what the user sees.
import { writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Frame, Page } from 'puppeteer-core';
import { By, Key, type WebDriver } from 'selenium-webdriver';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- functions run in the browser take any JSON arguments
type InPage<T> = (...args: any[]) => T | Promise<T>;

export interface Doc {
  /** Runs `fn` in this document (a returned promise is awaited) with JSON arguments. */
  run<T>(fn: InPage<T>, ...args: unknown[]): Promise<T>;
  /** Types into the element with real key events, then presses Enter. */
  typeAndEnter(selector: string, text: string): Promise<void>;
  click(selector: string): Promise<void>;
  /** A PNG of the element as drawn on screen. */
  shot(selector: string): Promise<Buffer>;
}

export interface EnginePage {
  goto(url: string): Promise<void>;
  top: Doc;
  /** The player's document: the iframe whose URL holds /avatar/, else the top document. */
  player(): Promise<Doc>;
  /** The whole viewport as a PNG file (directories are made). */
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

async function save(path: string, png: Buffer): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  await writeFile(path, png);
}

function puppeteerDoc(target: Page | Frame, page: Page): Doc {
  return {
    run: <T>(fn: InPage<T>, ...args: unknown[]) => target.evaluate(fn as (...a: unknown[]) => T, ...args) as Promise<T>,
    async typeAndEnter(selector, text) {
      await target.type(selector, text);
      await page.keyboard.press('Enter');
    },
    click: (selector) => target.click(selector),
    async shot(selector) {
      // Element screenshots inside an iframe ask Firefox 140 for a BiDi locator it lacks: clip the
      // page's screenshot to the element's box instead (plus the player iframe's offset).
      const box = await target.evaluate((sel: string) => {
        const r = document.querySelector(sel)!.getBoundingClientRect();
        return { x: r.left, y: r.top, width: r.width, height: r.height };
      }, selector);
      const offset =
        target === page
          ? { x: 0, y: 0 }
          : await page.evaluate(() => {
              const r = document.querySelector('iframe[src*="/avatar/"]')!.getBoundingClientRect();
              return { x: r.left, y: r.top };
            });
      return Buffer.from(await page.screenshot({ type: 'png', clip: { ...box, x: box.x + offset.x, y: box.y + offset.y } }));
    },
  };
}

export function firefoxPage(page: Page): EnginePage {
  const top = puppeteerDoc(page, page);
  return {
    async goto(url) {
      await page.goto(url, { waitUntil: 'load' });
    },
    top,
    async player() {
      const frame = page.frames().find((f) => f !== page.mainFrame() && f.url().includes('/avatar/'));
      return frame ? puppeteerDoc(frame, page) : top;
    },
    screenshot: async (path) => save(path, Buffer.from(await page.screenshot({ type: 'png' }))),
    close: () => page.close(),
  };
}

/** Selenium runs in one browsing context at a time: each call switches to its document first. */
function seleniumDoc(driver: WebDriver, enter: () => Promise<void>): Doc {
  return {
    async run<T>(fn: InPage<T>, ...args: unknown[]) {
      await enter();
      return (await driver.executeScript(`return (${fn.toString()}).apply(null, arguments)`, ...args)) as T;
    },
    async typeAndEnter(selector, text) {
      await enter();
      // WebKitWebDriver refuses Element Send Keys inside an iframe ("not focusable"): click the
      // field, then type through the Actions API (real key events either way).
      await driver.findElement(By.css(selector)).click();
      await driver.actions().sendKeys(text, Key.ENTER).perform();
    },
    async click(selector) {
      await enter();
      await driver.findElement(By.css(selector)).click();
    },
    async shot(selector) {
      await enter();
      return Buffer.from(await driver.findElement(By.css(selector)).takeScreenshot(), 'base64');
    },
  };
}

export function webkitPage(driver: WebDriver): EnginePage {
  const toTop = () => driver.switchTo().defaultContent();
  const top = seleniumDoc(driver, toTop);
  return {
    goto: (url) => driver.get(url),
    top,
    async player() {
      await toTop();
      const frames = await driver.findElements(By.css('iframe'));
      for (const f of frames) {
        if (!((await f.getAttribute('src')) ?? '').includes('/avatar/')) continue;
        return seleniumDoc(driver, async () => {
          await toTop();
          await driver.switchTo().frame(f);
        });
      }
      return top;
    },
    async screenshot(path) {
      await toTop();
      await save(path, Buffer.from(await driver.takeScreenshot(), 'base64'));
    },
    close: () => driver.quit(),
  };
}
