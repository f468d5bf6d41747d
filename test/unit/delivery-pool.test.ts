// The pooled agent against real loopback receivers: connections are reused per origin and vetted
// address, never across hostnames, never for an address the guard refuses now, idle sockets close,
// and one receiver that never answers holds at most its own sockets.
import { execFileSync } from 'node:child_process';
import type { LookupAddress } from 'node:dns';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createTlsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DeliveryPool } from '../../functions/webhooks/infra/pool';
import type { SendOptions } from '../../functions/webhooks/infra/send';
import { sendWebhook } from '../../functions/webhooks/infra/send';
import { receiverBody } from '../../functions/events/domain/event';
import { generateSigningSecret } from '../../functions/webhooks/domain/signing';
import { until } from '../support/until';
import { systemClock } from '../../functions/platform/clock';

interface Receiver {
  server: Server;
  port: number;
  /** Server-side sockets, in the order they were accepted. */
  sockets: Socket[];
  hits: number;
  respond: (response: ServerResponse) => void;
}

const receivers: Receiver[] = [];

async function receiver(host = '127.0.0.1'): Promise<Receiver> {
  const r: Receiver = {
    server: createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        r.hits++;
        r.respond(response);
      });
    }),
    port: 0,
    sockets: [],
    hits: 0,
    respond: (response) => response.writeHead(204).end(),
  };
  r.server.on('connection', (socket) => r.sockets.push(socket));
  await new Promise<void>((resolve) => r.server.listen(0, host, resolve));
  r.port = (r.server.address() as AddressInfo).port;
  receivers.push(r);
  return r;
}

afterEach(async () => {
  for (const r of receivers.splice(0)) {
    r.server.closeAllConnections();
    await new Promise((resolve) => r.server.close(resolve));
  }
});

const secret = generateSigningSecret();
const event = {
  id: 'evt_aaaaaaaaaaaaaaaaaaaa',
  type: 'webhook.test',
  occurred_at: '2026-01-01T00:00:00.000Z',
  data: {},
};
const resolvingTo =
  (...addresses: string[]) =>
  async (): Promise<LookupAddress[]> =>
    addresses.map((address) => ({ address, family: 4 }));

function sender(pool: DeliveryPool) {
  return (url: string, options: Partial<SendOptions> = {}) =>
    sendWebhook(
      {
        url,
        eventId: event.id,
        body: receiverBody(event),
        secrets: [secret],
        timestampSeconds: Math.floor(Date.now() / 1000),
        clock: systemClock,
      },
      { allowLoopback: true, pool, ...options },
    );
}

describe('pooled delivery connections', () => {
  let pool: DeliveryPool;
  beforeEach(() => (pool = new DeliveryPool()));
  afterEach(() => pool.destroy());

  it('reuses one kept-alive connection for consecutive deliveries to the same origin', async () => {
    const r = await receiver();
    const send = sender(pool);
    for (let i = 0; i < 3; i++) {
      expect((await send(`http://127.0.0.1:${r.port}/e${i}`)).kind).toBe('delivered');
    }
    expect(r.hits).toBe(3);
    expect(r.sockets).toHaveLength(1);
  });

  it('never reuses a socket across hostnames, even when they resolve to the same address', async () => {
    const r = await receiver();
    const send = sender(pool);
    const resolve = resolvingTo('127.0.0.1');
    expect((await send(`http://a.example.test:${r.port}/in`, { resolve })).kind).toBe('delivered');
    expect((await send(`http://b.example.test:${r.port}/in`, { resolve })).kind).toBe('delivered');
    expect((await send(`http://a.example.test:${r.port}/in`, { resolve })).kind).toBe('delivered');
    expect(r.sockets).toHaveLength(2);
  });

  it('gives no pooled socket to a hostname that now resolves to a blocked address', async () => {
    const r = await receiver();
    const send = sender(pool);
    const url = `http://hooks.example.test:${r.port}/in`;
    expect((await send(url, { resolve: resolvingTo('127.0.0.1') })).kind).toBe('delivered');
    expect(pool.openSockets()).toBe(1); // a kept-alive socket to 127.0.0.1 is waiting

    const rebound = await send(url, { resolve: resolvingTo('10.0.0.7') });
    expect(rebound).toMatchObject({ kind: 'failed', errorKind: 'blocked_address' });
    // The same address, refused by today's policy (production: no loopback), despite the open socket.
    const refused = await send(url, { resolve: resolvingTo('127.0.0.1'), allowLoopback: false });
    expect(refused).toMatchObject({ kind: 'failed', errorKind: 'blocked_address' });
    expect(r.hits).toBe(1);
  });

  it('opens a new socket when the hostname re-resolves to another allowed address', async () => {
    const r = await receiver('0.0.0.0');
    const send = sender(pool);
    const url = `http://hooks.example.test:${r.port}/in`;
    expect((await send(url, { resolve: resolvingTo('127.0.0.1') })).kind).toBe('delivered');
    expect((await send(url, { resolve: resolvingTo('127.0.0.2') })).kind).toBe('delivered');
    expect((await send(url, { resolve: resolvingTo('127.0.0.2') })).kind).toBe('delivered');
    expect(r.sockets.map((s) => s.localAddress)).toEqual(['127.0.0.1', '127.0.0.2']);
  });

  it('closes a connection that stays idle past the idle limit', async () => {
    const idlePool = new DeliveryPool({ idleMs: 100 });
    try {
      const r = await receiver();
      expect((await sender(idlePool)(`http://127.0.0.1:${r.port}/in`)).kind).toBe('delivered');
      expect(idlePool.openSockets()).toBe(1);
      // Closed by us (the receiver's own keep-alive timeout is 5 s), and dropped from the pool.
      await until(
        'the idle sockets to close',
        async () => (idlePool.openSockets() === 0 ? true : undefined),
        3_000,
      );
      expect(r.sockets[0]!.destroyed || r.sockets[0]!.readableEnded).toBe(true);
    } finally {
      idlePool.destroy();
    }
  });

  it('sends again on a fresh socket when a kept-alive one turns out closed by the receiver', async () => {
    const r = await receiver();
    const served = new WeakMap<object, number>();
    r.respond = (response) => {
      const socket = response.socket!;
      served.set(socket, (served.get(socket) ?? 0) + 1);
      // The receiver dropped this kept-alive connection meanwhile: the request meets a reset.
      if (served.get(socket)! > 1) return void socket.destroy();
      response.writeHead(204).end();
    };
    const send = sender(pool);
    expect((await send(`http://127.0.0.1:${r.port}/a`)).kind).toBe('delivered');
    expect((await send(`http://127.0.0.1:${r.port}/b`)).kind).toBe('delivered');
    expect(r.sockets).toHaveLength(2);
  });

  it('waits for an answer slower than the idle limit: only idle sockets are closed', async () => {
    const idlePool = new DeliveryPool({ idleMs: 50 });
    try {
      const r = await receiver();
      r.respond = (response) => setTimeout(() => response.writeHead(204).end(), 300);
      expect(await sender(idlePool)(`http://127.0.0.1:${r.port}/slow`)).toMatchObject({
        kind: 'delivered',
        statusCode: 204,
      });
    } finally {
      idlePool.destroy();
    }
  });

  it('holds a receiver that never answers to its own sockets, so others are not delayed', async () => {
    const capped = new DeliveryPool({ maxSocketsPerOrigin: 3 });
    try {
      const hanging = await receiver();
      hanging.respond = () => undefined;
      const healthy = await receiver();
      const send = sender(capped);
      let hangingSettled = 0;
      const stuck = Array.from({ length: 8 }, () =>
        send(`http://127.0.0.1:${hanging.port}/slow`, { timeoutMs: 30_000 }).then((outcome) => {
          hangingSettled++;
          return outcome;
        }),
      );
      const fine = await Promise.all(
        Array.from({ length: 6 }, (_, i) => send(`http://127.0.0.1:${healthy.port}/ok${i}`)),
      );
      expect(fine.map((o) => o.kind)).toEqual(Array(6).fill('delivered'));
      expect(hangingSettled).toBe(0); // all eight still waiting while the healthy receiver was served
      expect(hanging.sockets.length).toBeLessThanOrEqual(3);
      expect(healthy.sockets.length).toBeLessThanOrEqual(3);
      // Let the stuck attempts end, as connection errors: stop accepting, then drop the open ones.
      hanging.server.close();
      hanging.server.closeAllConnections();
      for (const outcome of await Promise.all(stuck)) expect(outcome.kind).toBe('retry');
    } finally {
      capped.destroy();
    }
  });

  it('pools https connections too: SNI and certificate checks use the hostname, the socket the vetted address', async () => {
    // A throwaway certificate for hooks.example.test, made with openssl for this test only.
    const dir = mkdtempSync(join(tmpdir(), 'pool-tls-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=hooks.example.test',
          '-addext',
          'subjectAltName=DNS:hooks.example.test',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
      const cert = readFileSync(join(dir, 'cert.pem'));
      const serverNames: (string | false | null)[] = [];
      let hits = 0;
      const server = createTlsServer(
        { key: readFileSync(join(dir, 'key.pem')), cert },
        (request, response) => {
          request.resume();
          request.on('end', () => {
            hits++;
            response.writeHead(204).end();
          });
        },
      );
      server.on('secureConnection', (socket) => serverNames.push(socket.servername));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      const tlsPool = new DeliveryPool({ ca: cert });
      try {
        const send = sender(tlsPool);
        const resolve = resolvingTo('127.0.0.1');
        for (let i = 0; i < 3; i++) {
          expect((await send(`https://hooks.example.test:${port}/in`, { resolve })).kind).toBe('delivered');
        }
        expect(serverNames).toEqual(['hooks.example.test']); // one TLS handshake for three deliveries
        // The same address under a name the certificate does not cover: refused, and no socket reused.
        const other = await send(`https://other.example.test:${port}/in`, { resolve });
        expect(other).toMatchObject({ kind: 'retry', errorKind: 'tls' });
        expect(hits).toBe(3);
      } finally {
        tlsPool.destroy();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
