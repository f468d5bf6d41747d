// A real HTTP receiver on loopback for delivery tests: each path answers as a script says, and every
// request is kept with its raw body and headers (so tests verify signatures as a customer would).
import type { IncomingHttpHeaders, Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What to answer: a status (with headers; after `delayMs`, a slow receiver), or 'hang' (never answer). */
export type Answer =
  { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'hang';

export interface Receiver {
  url(path: string): string;
  received: Received[];
  on(path: string, script: (n: number) => Answer): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const scripts = new Map<string, (n: number) => Answer>();
  const counts = new Map<string, number>();
  const delayed = new Set<NodeJS.Timeout>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({
        path,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const script = scripts.get(path) ?? ((): Answer => ({ status: 204 }));
      const answer = script(n);
      if (answer === 'hang') return;
      const send = () => {
        response.writeHead(answer.status, answer.headers ?? {});
        response.end(answer.body ?? '');
      };
      if (!answer.delayMs) return send();
      const timer = setTimeout(() => {
        delayed.delete(timer);
        if (!response.destroyed) send();
      }, answer.delayMs);
      delayed.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    on: (path, script) => void scripts.set(path, script),
    close: () =>
      new Promise<void>((resolve) => {
        delayed.forEach(clearTimeout);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
