import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { sendWebhook } from '../functions/webhooks/infra/send';
import { webhookHeaders, generateSigningSecret } from '../functions/webhooks/domain/signing';
const child = fork('/tmp/sendbench/server.mjs');
const port: number = await new Promise((r) => child.once('message', (m) => r(m as number)));
const secret = generateSigningSecret();
const body = JSON.stringify({ id: 'evt_x', type: 'matter.created', occurred_at: new Date().toISOString(), data: { matterId: 'm1', name: 'n' } });
const url = `http://127.0.0.1:${port}/in`;
const N = 8000, C = 8;
async function run(one: () => Promise<void>) {
  let next = 0;
  const t = process.cpuUsage();
  await Promise.all(Array.from({ length: C }, async () => { while (next++ < N) await one(); }));
  const u = process.cpuUsage(t);
  return (u.user + u.system) / N;
}
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const raw = () => new Promise<void>((resolve, reject) => {
  const req = request({ host: '127.0.0.1', port, path: '/in', method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...webhookHeaders([secret], 'evt_x', Math.floor(Date.now() / 1000), body) } }, (res) => { res.resume(); res.on('end', resolve); });
  req.on('error', reject); req.end(body);
});
const ours = async () => { const o = await sendWebhook({ url, eventId: 'evt_x', body, secrets: [secret], timestampSeconds: Math.floor(Date.now() / 1000) }, { allowLoopback: true, timeoutMs: 5000 }); if (o.kind !== 'delivered') throw new Error(JSON.stringify(o)); };
await run(raw); await run(ours);
for (let r = 0; r < 5; r++) { const a = await run(raw); const b = await run(ours); console.log('raw', a.toFixed(1), 'us  send', b.toFixed(1), 'us  ratio', (b / a).toFixed(2)); }
child.kill(); process.exit(0);
