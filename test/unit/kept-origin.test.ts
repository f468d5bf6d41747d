// Requests to the API's own origin on a customer's server keep their connections (one TCP and TLS
// handshake per origin, not per request) and stay vetted and pinned; a URL a provider handed back still
// gets a connection of its own, vetted each time.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import {
  BlockedAddressError,
  foreignRequest,
} from '../../functions/connectors/infra/content/foreign-request';

const server = createServer((request, response) => {
  response.setHeader('content-type', 'text/plain');
  response.end(`ok ${request.url}`);
});
let connections = 0;
server.on('connection', () => connections++);
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  connections = 0;
});

/** A guard whose resolver answers `address` for any name and counts the lookups. */
function guard(address: string, allowLoopback = true) {
  const lookups: string[] = [];
  return {
    lookups,
    allowLoopback,
    resolve: async (hostname: string): Promise<LookupAddress[]> => {
      lookups.push(hostname);
      return [{ address, family: 4 }];
    },
  };
}

const ask = (path: string, policy: ReturnType<typeof guard>, keepAlive: boolean) =>
  foreignRequest(new URL(`http://work.firm.example:${port}${path}`), {
    method: 'GET',
    headers: {},
    guard: policy,
    timeoutMs: 5_000,
    keepAlive,
  });

describe("the API's own origin on a customer's server", () => {
  it('reuses one vetted connection for the requests that follow', async () => {
    const policy = guard('127.0.0.1');
    for (const path of ['/a', '/b', '/c']) {
      const response = await ask(path, policy, true);
      expect(await response.text()).toBe(`ok ${path}`);
    }
    expect(connections).toBe(1);
    expect(policy.lookups).toEqual(['work.firm.example']);
  });

  it('vets the host once for requests in flight together', async () => {
    const policy = guard('127.0.0.1');
    const answers = await Promise.all(['/1', '/2', '/3', '/4'].map((path) => ask(path, policy, true)));
    expect(await Promise.all(answers.map((a) => a.text()))).toEqual(['ok /1', 'ok /2', 'ok /3', 'ok /4']);
    expect(policy.lookups).toHaveLength(1);
  });

  it("shares the connection between clients (a run's steps), each with a guard of its own", async () => {
    const policy = guard('127.0.0.1');
    for (const path of ['/a', '/b']) {
      const response = await ask(path, { ...policy }, true);
      expect(await response.text()).toBe(`ok ${path}`);
    }
    expect(connections).toBe(1);
    expect(policy.lookups).toHaveLength(1);
  });

  it('refuses a host that resolves to a forbidden address, and keeps no refusal', async () => {
    const policy = guard('127.0.0.1', false);
    await expect(ask('/x', policy, true)).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(ask('/x', policy, true)).rejects.toBeInstanceOf(BlockedAddressError);
    expect(policy.lookups).toHaveLength(2);
    expect(connections).toBe(0);
  });

  it('never connects to an address other than the vetted ones', async () => {
    // Resolves to 127.0.0.2, where nothing listens: the kept agent's sockets connect only there, never
    // to the server on 127.0.0.1 under the same port.
    const policy = guard('127.0.0.2');
    const asked = foreignRequest(new URL(`http://work.firm.example:${port}/y`), {
      method: 'GET',
      headers: {},
      guard: policy,
      timeoutMs: 300,
      keepAlive: true,
    });
    await expect(asked).rejects.toMatchObject({ code: 'ECONNREFUSED', address: '127.0.0.2' });
    expect(connections).toBe(0);
  });
});

describe('a URL a provider handed back', () => {
  it('gets a connection of its own, vetted each time', async () => {
    const policy = guard('127.0.0.1');
    for (const path of ['/a', '/b']) expect(await (await ask(path, policy, false)).text()).toBe(`ok ${path}`);
    expect(connections).toBe(2);
    expect(policy.lookups).toHaveLength(2);
  });
});
