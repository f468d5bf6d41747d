// What the browser tier's files share: Chromium (Debian's, never a downloaded one) on a page against a
// local server (in a time zone that is not UTC, so the console's times are seen converted), an axe-core
// scan that fails on any violation of any impact, signing in with the development identity provider,
// the session cookie as a test reads it, a bounded wait, and the screenshots' folder.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import type { RunningServer } from '../support/local-server';

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');
export const SCREENSHOTS = join(ROOT, 'docs', 'screenshots');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The zone every browser test runs in: times on the page must be this zone's, UTC only on hover. */
export const TIME_ZONE = 'America/New_York';

export async function launchBrowser(
  options: BrowserContextOptions = {},
): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const context = await browser.newContext({
    viewport: { width: 1280, height: 860 },
    timezoneId: TIME_ZONE,
    locale: 'en-US',
    ...options,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return { browser, page };
}

/** axe-core in the page: no violation of any impact (minor and moderate included). */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  // Evaluated through the DevTools protocol: the console's CSP (script-src 'self') refuses inline tags.
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: () => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run();
    return result.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  });
  expect({ page: name, violations }).toEqual({ page: name, violations: [] });
}

export async function signIn(
  page: Page,
  server: RunningServer,
  role: 'owner' | 'admin' | 'member',
): Promise<void> {
  await page.goto(`${server.baseUrl}/console/`);
  await page.getByLabel('Role').selectOption(role);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Webhook endpoints' }).waitFor();
}

/** The console session's cookie as the browser holds it (HttpOnly: a test reads it, the page cannot). */
export async function sessionCookie(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'console_session');
  if (!cookie) throw new Error('no console session cookie');
  expect({ httpOnly: cookie.httpOnly, sameSite: cookie.sameSite }).toEqual({
    httpOnly: true,
    sameSite: 'Strict',
  });
  return cookie.value;
}

/** What script in the page can read of cookies and storage: never the session. */
export const scriptVisibleSecrets = (page: Page): Promise<string> =>
  page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie);

/** The focused element: its tag and id ("H1", "bind-app"). */
export const focused = (page: Page): Promise<{ tag: string; id: string; text: string }> =>
  page.evaluate(() => {
    const active = (
      globalThis as unknown as {
        document: { activeElement: { tagName: string; id: string; textContent: string | null } | null };
      }
    ).document.activeElement;
    return { tag: active?.tagName ?? '', id: active?.id ?? '', text: active?.textContent ?? '' };
  });

/** Polls `probe` (every 100 ms) until it gives a value; fails after `timeoutMs`. */
export async function until<T>(
  probe: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Storage {
  length: number;
}

/** Items in the page's local and session storage (the console keeps none). */
export const storedItems = (page: Page): Promise<number> =>
  page.evaluate(() => {
    const g = globalThis as unknown as { localStorage: Storage; sessionStorage: Storage };
    return g.localStorage.length + g.sessionStorage.length;
  });

/**
 * The page's headings in order (axe's heading-order rule, asserted here on its own so a page cannot
 * pass by having no rule run): one h1, first, and no level skipped on the way down.
 */
export async function expectHeadingsInOrder(page: Page, name: string): Promise<void> {
  const levels = (await page.evaluate(
    `[...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1]))`,
  )) as number[];
  const skips = levels.filter((level, i) => i > 0 && level > levels[i - 1]! + 1);
  expect({ page: name, first: levels[0], h1s: levels.filter((l) => l === 1).length, skips }).toEqual({
    page: name,
    first: 1,
    h1s: 1,
    skips: [],
  });
}
