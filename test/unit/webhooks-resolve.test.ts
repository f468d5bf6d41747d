// Receivers' names are resolved by asking a DNS server (a real one over UDP here), on the event loop:
// a lookup neither needs nor holds a thread of libuv's pool, so a pool busy with other work (or with
// slow lookups) does not hold deliveries back, and deliveries do not hold the pool.
import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import { lookup } from 'node:dns';
import { pbkdf2 } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { hostResolver } from '../../functions/platform/resolve';

/** A DNS server for one zone: `hooks.test` has A 203.0.113.7 and AAAA 2001:db8::7; `slow.test` never answers. */
let server: Socket;
let servers: string[];
const asked: string[] = [];

function nameAt(message: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  while (message[at]! > 0) {
    labels.push(message.subarray(at + 1, at + 1 + message[at]!).toString('ascii'));
    at += message[at]! + 1;
  }
  return { name: labels.join('.'), end: at + 1 };
}

function answer(query: Buffer): Buffer | undefined {
  const { name, end } = nameAt(query, 12);
  const type = query.readUInt16BE(end);
  asked.push(`${name}/${type}`);
  if (name === 'slow.test') return undefined;
  const question = query.subarray(12, end + 4);
  const record =
    name === 'hooks.test' && type === 1
      ? Buffer.from([203, 0, 113, 7])
      : name === 'hooks.test' && type === 28
        ? Buffer.from('20010db8000000000000000000000007', 'hex')
        : undefined;
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // id
  header.writeUInt16BE(0x8180 | (name === 'hooks.test' ? 0 : 3), 2); // response, RD+RA, NOERROR or NXDOMAIN
  header.writeUInt16BE(1, 4); // one question
  header.writeUInt16BE(record ? 1 : 0, 6);
  if (!record) return Buffer.concat([header, question]);
  const rr = Buffer.alloc(12);
  rr.writeUInt16BE(0xc00c, 0); // the question's name
  rr.writeUInt16BE(type, 2);
  rr.writeUInt16BE(1, 4); // IN
  rr.writeUInt32BE(60, 6);
  rr.writeUInt16BE(record.length, 10);
  return Buffer.concat([header, question, rr, record]);
}

beforeAll(async () => {
  server = createSocket('udp4');
  server.on('message', (query, from) => {
    const reply = answer(query);
    if (reply) server.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
  servers = [`127.0.0.1:${(server.address() as AddressInfo).port}`];
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('both address families of a name, from the DNS server', async () => {
  const resolve = hostResolver({ servers });
  expect(await resolve('hooks.test')).toEqual([
    { address: '203.0.113.7', family: 4 },
    { address: '2001:db8::7', family: 6 },
  ]);
  expect(asked).toEqual(expect.arrayContaining(['hooks.test/1', 'hooks.test/28']));
});

test('a name with no address is ENOTFOUND; a server that does not answer is EAI_AGAIN, within the limit', async () => {
  const resolve = hostResolver({ servers, timeoutMs: 100 });
  await expect(resolve('missing.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  const started = Date.now();
  await expect(resolve('slow.test')).rejects.toMatchObject({ code: 'EAI_AGAIN' });
  expect(Date.now() - started).toBeLessThan(2_000); // 100 ms, then 200 ms for the retry
});

test('localhost is the loopback addresses, never asked of DNS (RFC 6761)', async () => {
  const resolve = hostResolver({ servers });
  asked.length = 0;
  expect(await resolve('localhost')).toEqual([
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
  ]);
  expect(await resolve('api.LOCALHOST.')).toHaveLength(2);
  expect(asked).toEqual([]);
});

test('a lookup answers while every thread of the pool is busy, and holds none of them', async () => {
  const resolve = hostResolver({ servers });
  // Four threads (UV_THREADPOOL_SIZE's default), each held about a second by a key derivation.
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  let firstFree = Infinity; // when the first thread came free
  const busy = Array.from(
    { length: threads },
    () =>
      new Promise<void>((done) =>
        pbkdf2('secret', 'salt', 400_000, 64, 'sha512', () => {
          firstFree = Math.min(firstFree, Date.now());
          done();
        }),
      ),
  );
  // The pool is taken: getaddrinfo (dns.lookup) waits for a thread, the resolver does not.
  let lookedUpAt = 0;
  const viaPool = new Promise<void>((done) => lookup('localhost', () => ((lookedUpAt = Date.now()), done())));
  const addresses = await resolve('hooks.test');
  const resolvedAt = Date.now();
  await Promise.all([...busy, viaPool]);
  expect(addresses[0]).toEqual({ address: '203.0.113.7', family: 4 });
  expect(resolvedAt).toBeLessThan(firstFree); // answered before the pool had a thread free
  expect(lookedUpAt).toBeGreaterThanOrEqual(firstFree); // getaddrinfo had to wait for one
});
