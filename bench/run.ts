// `npm run bench`: runs the benchmarks and writes bench/results/. Loopback traffic only, bounded in
// count and time. Worker logs are quietened first (the logger reads LOG_LEVEL when it loads).
// `npm run bench -- bundles` (or `delivery`, `import`, `import-latency`, `console`, `reconcile`, `calls`, `idle-month`) runs only the named ones; `calls` needs
// the emulators (bash scripts/with-emulators.sh npm run bench -- calls).
process.env.LOG_LEVEL ??= 'warn';
process.env.STAGE ??= 'local';

const BENCHES = {
  delivery: async () => (await import('./delivery')).runDeliveryBench(),
  bundles: async () => (await import('./bundles')).runBundleBench(),
  import: async () => (await import('./import')).runImportBench(),
  // Each provider's fake answering after BENCH_LATENCY_MS (30): the import against the raw loop at its concurrency.
  'import-latency': async () => (await import('./import')).runImportLatencyBench(),
  console: async () => (await import('./console')).runConsoleBench(),
  reconcile: async () => (await import('./reconcile')).runReconcileBench(),
  // On the emulators only (bash scripts/with-emulators.sh npm run bench -- calls); skipped otherwise.
  calls: async () => (await import('./calls')).runCallsBench(),
  // In memory on the development clock: a simulated month of idle connections' sweep calls.
  'idle-month': async () => (await import('./idle-month')).runIdleMonthBench(),
} as const;

type BenchName = keyof typeof BENCHES;
const asked = process.argv.slice(2).filter((a) => a !== '--');
const unknown = asked.filter((a) => !(a in BENCHES));
if (unknown.length) {
  console.error(`Unknown bench ${unknown.join(', ')}; choose from ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}
const everything = (Object.keys(BENCHES) as BenchName[]).filter(
  (name) => name !== 'calls' || process.env.AWS_ENDPOINT_URL,
);
for (const name of (asked.length ? asked : everything) as BenchName[]) {
  await BENCHES[name]();
}
process.exit(0);

export {};
