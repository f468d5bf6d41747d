// The benchmark's receiver, in its own process so the bench's CPU figures hold only the sender's work.
// It listens on several ports (one origin per endpoint), verifies every signature against the secret of
// the path, answers 204 at once, except on /hang* paths, which never answer. Receipts (webhook-id, path,
// absolute time in ms) are kept here and handed over on request, so no per-request IPC disturbs the
// sender. Parent messages: {cmd:'listen',count} {cmd:'secrets',secrets} {cmd:'count'} {cmd:'take'}.
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../functions/webhooks/domain/signing';

type Receipt = [id: string, path: string, at: number];

const secrets = new Map<string, string>();
let receipts: Receipt[] = [];
let received = 0;
let verified = 0;
const servers: Server[] = [];
const now = () => performance.timeOrigin + performance.now();

function listen(): Promise<number> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const at = now();
      const path = request.url ?? '';
      if (path.startsWith('/hang')) return; // never answers: the sender's timeout ends it
      received++;
      try {
        verifyWebhook(secrets.get(path) ?? 'whsec_AA==', request.headers, Buffer.concat(chunks));
        verified++;
      } catch {
        // counted as received, not verified
      }
      receipts.push([String(request.headers['webhook-id']), path, at]);
      response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 5_000;
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

process.on('message', (message: { cmd: string; count?: number; secrets?: Record<string, string> }) => {
  const reply = (value: unknown) => process.send!(value);
  switch (message.cmd) {
    case 'listen':
      void Promise.all(Array.from({ length: message.count ?? 1 }, listen)).then((ports) => reply({ ports }));
      break;
    case 'secrets':
      for (const [path, secret] of Object.entries(message.secrets ?? {})) secrets.set(path, secret);
      reply({ ok: true });
      break;
    case 'count':
      reply({ received, verified });
      break;
    case 'take':
      reply({ receipts });
      receipts = [];
      break;
    default:
      reply({ error: `unknown command ${message.cmd}` });
  }
});

process.on('disconnect', () => {
  for (const server of servers) server.closeAllConnections();
  process.exit(0);
});
