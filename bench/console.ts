// The console's time to interactive (the console's goal: under 500 ms locally), measured in Chromium against
// `npm start`'s server: a signed-in load of `#/webhooks` until the endpoints list is drawn (the page,
// its script, the session check and the list read), from the navigation's start by the page's own
// clock. Baseline, in the same run and interleaved with it: the plainest page doing the same visible
// work on the same origin (one inline script that reads the same list with the same session and draws
// it as a table), so the ratio is what the console's own code costs. Loopback only, bounded rounds.
import { cpus } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, signIn } from '../test/browser/browser-support';
import { startLocalServer } from '../test/support/local-server';
import type { MachineReport } from './machine';
import { watchMachine } from './machine';

const ROUNDS = Number(process.env.BENCH_CONSOLE_ROUNDS ?? 9);
const GOAL_MS = 500;
const ROOT = resolve(import.meta.dirname ?? 'bench', '..');
const RESULTS = process.env.BENCH_RESULTS_DIR ?? join(ROOT, 'bench', 'results');

/** The same list, drawn by the least code that can: no framework, no session check, no router. */
const PLAIN_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>plain</title></head>
<body><main><h1>Webhook endpoints</h1><div id="list"></div></main><script>
fetch('/webhooks/v1/endpoints?limit=50', { headers: { 'X-Console-Request': '1' } })
  .then((r) => r.json())
  .then((body) => {
    const rows = (body.data || []).map((e) => '<tr><td>' + e.id + '</td><td>' + e.url + '</td></tr>').join('');
    document.getElementById('list').innerHTML = rows ? '<table>' + rows + '</table>' : '<p class="empty">none</p>';
  });
</script></body></html>`;

/** Milliseconds from navigation start until the list (or its empty state) is in the page. */
async function timeLoad(page: Page, url: string): Promise<number> {
  await page.goto('about:blank');
  await page.goto(url);
  await page.locator('main table, main .empty').first().waitFor();
  return Number(await page.evaluate('performance.now()'));
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

export async function runConsoleBench(): Promise<void> {
  const machine = watchMachine();
  const server = await startLocalServer({ LOCAL_SCHEDULE_INTERVAL_MS: '0', LOG_LEVEL: 'warn' });
  const { browser, page } = await launchBrowser();
  try {
    await signIn(page, server, 'owner');
    const consoleUrl = `${server.baseUrl}/console/#/webhooks`;
    const plainUrl = `${server.baseUrl}/__bench/plain.html`;
    await page.route(plainUrl, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: PLAIN_PAGE }),
    );
    // Warm-up: the server's first build of the console and the browser's caches, for both pages.
    await timeLoad(page, consoleUrl);
    await timeLoad(page, plainUrl);
    const consoleMs: number[] = [];
    const plainMs: number[] = [];
    for (let i = 0; i < ROUNDS; i += 1) {
      consoleMs.push(await timeLoad(page, consoleUrl));
      plainMs.push(await timeLoad(page, plainUrl));
    }
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      machine: machine.end(),
      rounds: ROUNDS,
      console: {
        medianMs: round(median(consoleMs)),
        minMs: round(Math.min(...consoleMs)),
        maxMs: round(Math.max(...consoleMs)),
      },
      plain: {
        medianMs: round(median(plainMs)),
        minMs: round(Math.min(...plainMs)),
        maxMs: round(Math.max(...plainMs)),
      },
      ratio: round(median(consoleMs) / median(plainMs), 2),
      goalMs: GOAL_MS,
      met: median(consoleMs) < GOAL_MS,
    };
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, 'console.json'), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(join(RESULTS, 'console.md'), markdown(result));
    console.log(markdown(result));
  } finally {
    await browser.close();
    await server.stop();
  }
}

function markdown(r: {
  date: string;
  node: string;
  cpus: number;
  machine: MachineReport;
  rounds: number;
  console: { medianMs: number; minMs: number; maxMs: number };
  plain: { medianMs: number; minMs: number; maxMs: number };
  ratio: number;
  met: boolean;
}): string {
  return `# Console benchmark

${r.date}, ${r.cpus} CPUs, Node ${r.node}. \`npm run bench -- console\`; raw figures in [console.json](console.json).
Machine: ${r.machine.summary}

A signed-in load of \`#/webhooks\` in Chromium (headless) against the local server, from navigation
start until the endpoints list is drawn, by the page's own clock; ${r.rounds} interleaved rounds after
a warm-up. Baseline: a plain page on the same origin reading the same list with the same session and
drawing it with one inline script.

| Page | median ms | min-max ms |
|---|---|---|
| console (\`#/webhooks\`) | ${r.console.medianMs} | ${r.console.minMs}-${r.console.maxMs} |
| plain page, same list | ${r.plain.medianMs} | ${r.plain.minMs}-${r.plain.maxMs} |
| **console / plain** | **${r.ratio}** | |

Goal: interactive under ${GOAL_MS} ms locally: ${r.met ? 'met' : '**not met**'}.
The script's size budget (30 KB gzip) is a test: test/cdk/console.test.ts.
`;
}
