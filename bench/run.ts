// `npm run bench`: runs the benchmarks and writes bench/results/. Loopback traffic only, bounded in
// count and time. Worker logs are quietened first (the logger reads LOG_LEVEL when it loads).
// `npm run bench -- bundles` (or `delivery`, `import`, `console`) runs only the named ones.
process.env.LOG_LEVEL ??= 'warn';
process.env.STAGE ??= 'local';

const BENCHES = {
  delivery: async () => (await import('./delivery')).runDeliveryBench(),
  bundles: async () => (await import('./bundles')).runBundleBench(),
  import: async () => (await import('./import')).runImportBench(),
  console: async () => (await import('./console')).runConsoleBench(),
} as const;

type BenchName = keyof typeof BENCHES;
const asked = process.argv.slice(2).filter((a) => a !== '--');
const unknown = asked.filter((a) => !(a in BENCHES));
if (unknown.length) {
  console.error(`Unknown bench ${unknown.join(', ')}; choose from ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}
for (const name of (asked.length ? asked : Object.keys(BENCHES)) as BenchName[]) {
  await BENCHES[name]();
}
process.exit(0);

export {};
