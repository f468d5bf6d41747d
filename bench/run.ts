// `npm run bench`: runs the benchmarks and writes bench/results/. Loopback traffic only, bounded in
// count and time. Worker logs are quietened first (the logger reads LOG_LEVEL when it loads).
process.env.LOG_LEVEL ??= 'warn';
process.env.STAGE ??= 'local';

const { runDeliveryBench } = await import('./delivery');
await runDeliveryBench();
process.exit(0);

export {};
