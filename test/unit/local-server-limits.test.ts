// The local server's request limits, over raw sockets: it stops reading a body at the
// route's 256 KiB limit (it buffered up to 10 MiB and read an over-limit body to its end), and a client
// that sends its headers or body too slowly is answered 408 and cut off instead of holding a socket for
// Node's 300 s default.
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createLocalDeps } from '../../functions/compose/local';
import { createLocalServer } from '../../functions/dev-runtime/server/server';
import { MAX_BODY_BYTES } from '../../functions/platform/http';

let server: Server;
let port: number;

beforeAll(async () => {
  server = createLocalServer(createLocalDeps(), [], undefined, {
    headersTimeoutMs: 1_000,
    requestTimeoutMs: 2_000,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Opens a socket; `answer` resolves with all the server sent once it closes the connection. */
function open(): Promise<{ socket: Socket; answer: Promise<string> }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      const answer = new Promise<string>((done) => {
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        socket.on('close', () => done(text));
        socket.on('error', () => undefined); // a reset after the answer is expected
      });
      resolve({ socket, answer });
    });
  });
}

const head = (length: number) =>
  `POST /webhooks/v1/events HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
  `Authorization: Bearer lpk_x\r\nContent-Length: ${length}\r\n\r\n`;

describe('the local server stops reading at the route body limit', () => {
  it('answers 413 to a declared length over the limit without reading the body', async () => {
    const { socket, answer } = await open();
    socket.write(head(10 * 1024 * 1024));
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toContain(`"code":"PAYLOAD_TOO_LARGE"`);
    expect(text).toContain(`Request body exceeds ${MAX_BODY_BYTES} bytes`);
  });

  it('answers 413 and closes once a body passes the limit, before the rest is sent', async () => {
    const { socket, answer } = await open();
    // A body whose length is not declared up front (chunked), larger than the route takes.
    socket.write(
      'POST /webhooks/v1/events HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\n\r\n',
    );
    const chunk = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 5; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    // Never sends the terminating chunk: a server reading to the end would never answer.
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toContain('Connection: close');
  });
});

describe('the local server times out slow clients', () => {
  it('answers 408 to a body that does not arrive within the request timeout', async () => {
    const { socket, answer } = await open();
    const started = Date.now();
    socket.write(head(100) + '{"a":');
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toContain('"code":"INVALID_REQUEST"');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('answers 408 to headers that do not arrive within the headers timeout', async () => {
    const { socket, answer } = await open();
    const started = Date.now();
    socket.write('GET /openapi.json HTTP/1.1\r\nHost: loc');
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('still serves an ordinary request', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/no/such/path`);
    expect(response.status).toBe(404);
  });
});
