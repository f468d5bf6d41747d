process.env.LOG_LEVEL ??= 'warn';
process.env.STAGE ??= 'local';
const { deliveryCpuRounds } = await import('./delivery');
const r = await deliveryCpuRounds(Number(process.argv[2] ?? 7));
console.log(JSON.stringify({ ratio: r.ratio, spread: r.spread, handler: r.handlerCpuMs, raw: r.rawLoopCpuMs, load: r.load.summary }));
