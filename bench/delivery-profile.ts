// The delivery handler's CPU, profiled: `npx tsx bench/delivery-profile.ts [label] [handler|pipeline]`
// runs deliveryCpuRounds (interleaved handler and raw-loop rounds), or with `pipeline` the pipeline's
// bursts (publish, fan-out, delivery) interleaved with the raw loop, under the V8 profiler and writes
// bench/results/delivery-profile-<label>.{json,md}: the ratio, its spread and the load average, and the
// top functions by self time (the .cpuprofile itself goes to a temporary directory: open it in Chrome
// DevTools or speedscope for the flame graph).
import { Session } from 'node:inspector/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

process.env.LOG_LEVEL ??= 'warn';
process.env.STAGE ??= 'local';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const label = process.argv[2] ?? 'now';
const mode = process.argv[3] === 'pipeline' ? 'pipeline' : 'handler';
const RESULTS = join(import.meta.dirname ?? 'bench', 'results');

/** Self time per function (ms), from the sample deltas, biggest first. */
function selfTimes(profile: Profile, root: string) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${relative(root, url.replace(/^file:\/\//, ''))}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const all = [...totals.values()].reduce((a, b) => a + b, 0);
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => ({ name, ms: Number(ms.toFixed(1)), share: Number(((100 * ms) / all).toFixed(1)) }));
}

const { deliveryCpuRounds, pipelineRounds } = await import('./delivery');

/** What is profiled: the delivery handler alone against the raw loop, or the whole pipeline. */
async function profiled(): Promise<{ result: object; summary: string }> {
  if (mode === 'pipeline') {
    const result = await pipelineRounds(Number(process.env.BENCH_ROUNDS ?? 5));
    const t = result.throughput;
    const show = (s: { median: number; min: number; max: number }) => `${s.median} (${s.min}-${s.max})`;
    return {
      result,
      summary: `${t.rounds} rounds of a burst of ${t.pipeline.deliveries} deliveries through the pipeline (publish, fan-out,
delivery; at most 64 records in the handler) interleaved with the raw loop, then once the burst with
every batch at once, the whole run sampled by the V8 profiler. Machine: ${result.load.summary}

Pipeline / raw loop (deliveries/s, median (min-max)): **${show(t.ratio)}**; every batch at once (once, after the rounds) ${t.pipelineUnlimited.ratio}.
Pipeline ${show(t.pipeline.deliveriesPerSecond)}/s, CPU ${show(t.pipeline.cpuMsPerDelivery)} ms per delivery; raw loop
${show(t.rawLoop.postsPerSecond)}/s, CPU ${show(t.rawLoop.cpuMsPerPost)} ms per POST.`,
    };
  }
  const result = await deliveryCpuRounds(Number(process.env.BENCH_ROUNDS ?? 5));
  return {
    result,
    summary: `${result.rounds.length} handler rounds of
3,000 prepared deliveries interleaved with raw-loop rounds, the whole run sampled by the V8 profiler
(which costs both sides alike). Machine: ${result.load.summary}

Handler / raw POST CPU: **${result.ratio}** (median of rounds; spread ${result.spread[0]}-${result.spread[1]}); handler
${result.handlerCpuMs} ms, raw POST ${result.rawLoopCpuMs} ms per delivery (medians).

| round | handler ms | raw loop ms |
| --- | --- | --- |
${result.rounds.map((r, i) => `| ${i + 1} | ${r.handler} | ${r.rawLoop} |`).join('\n')}`,
  };
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const { result, summary } = await profiled();
const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
session.disconnect();

const top = selfTimes(profile, process.cwd()).slice(0, 30);
const dir = join(tmpdir(), 'delivery-profile');
mkdirSync(dir, { recursive: true });
const file = join(dir, `delivery-${label}.cpuprofile`);
writeFileSync(file, JSON.stringify(profile));
mkdirSync(RESULTS, { recursive: true });
writeFileSync(
  join(RESULTS, `delivery-profile-${label}.json`),
  JSON.stringify({ mode, ...result, top }, null, 2) + '\n',
);
writeFileSync(
  join(RESULTS, `delivery-profile-${label}.md`),
  `# Delivery ${mode === 'pipeline' ? 'pipeline' : 'handler'} CPU profile (${label})

${new Date().toISOString()}. \`npx tsx bench/delivery-profile.ts ${label} ${mode}\`: ${summary}

Top functions by self time (whole process: ${mode === 'pipeline' ? 'publish, fan-out, delivery' : 'handler'}, raw loop, local queue and table):

| function | self ms | share % |
| --- | --- | --- |
${top.map((t) => `| \`${t.name}\` | ${t.ms} | ${t.share} |`).join('\n')}
`,
);
console.log(JSON.stringify({ ...result, profile: file }, null, 2));
process.exit(0);
