// The console's CloudFront Functions run as deployed: their source evaluated in node and called with
// CloudFront's viewer-request event shape (lower-case header names, `{ value }` entries, parsed cookies).
import { CONSOLE_PATHS_CODE, CONSOLE_SESSION_CODE, SESSION_COOKIE } from '../../lib/console-edge';

interface Entry {
  value: string;
}
interface CloudFrontRequest {
  method: string;
  uri: string;
  querystring: Record<string, Entry>;
  headers: Record<string, Entry>;
  cookies: Record<string, Entry>;
}

/** The function's handler, from its source alone (as CloudFront compiles it: no imports, no module). */
const load = (code: string) =>
  new Function(`${code}\nreturn handler;`)() as (event: { request: CloudFrontRequest }) => CloudFrontRequest;

const request = (
  headers: Record<string, string>,
  cookies: Record<string, string>,
  uri = '/webhooks/v1/endpoints',
): {
  version: string;
  context: { eventType: string };
  viewer: { ip: string };
  request: CloudFrontRequest;
} => ({
  version: '1.0',
  context: { eventType: 'viewer-request' },
  viewer: { ip: '198.51.100.7' },
  request: {
    method: 'GET',
    uri,
    querystring: {},
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, { value: v }])),
    cookies: Object.fromEntries(Object.entries(cookies).map(([k, v]) => [k, { value: v }])),
  },
});

const TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c3JfMSJ9.c2lnbmF0dXJl';

describe('console session edge function', () => {
  const handler = load(CONSOLE_SESSION_CODE);

  it('turns the session cookie into the bearer for a console request, and strips the cookie', () => {
    const out = handler(
      request(
        { 'x-console-request': '1', host: 'console.example' },
        { [SESSION_COOKIE]: TOKEN, theme: 'dark' },
      ),
    );
    expect(out.headers.authorization).toEqual({ value: `Bearer ${TOKEN}` });
    expect(out.cookies).toEqual({ theme: { value: 'dark' } });
    expect(out.uri).toBe('/webhooks/v1/endpoints');
  });

  it("tells the API the console's origin from the viewer's Host, never from a header the viewer sent", () => {
    const out = handler(
      request({ host: 'console.example', 'x-console-origin': 'https://attacker.example' }, {}),
    );
    expect(out.headers['x-console-origin']).toEqual({ value: 'https://console.example' });
    const hostless = handler(request({ 'x-console-origin': 'https://attacker.example' }, {}));
    expect(hostless.headers['x-console-origin']).toBeUndefined();
  });

  it('authorizes nothing without the CSRF header (a cross-site form or link), and still strips the cookie', () => {
    const variants: Record<string, string>[] = [
      {},
      { 'x-console-request': '0' },
      { 'x-console-request': 'true' },
    ];
    for (const headers of variants) {
      const out = handler(request(headers, { [SESSION_COOKIE]: TOKEN }));
      expect(out.headers.authorization).toBeUndefined();
      expect(out.cookies).toEqual({});
    }
  });

  it("keeps a caller's own Authorization header (an API key) and never replaces it with the cookie", () => {
    const out = handler(
      request(
        { 'x-console-request': '1', authorization: 'Bearer key_live_abc' },
        { [SESSION_COOKIE]: TOKEN },
      ),
    );
    expect(out.headers.authorization).toEqual({ value: 'Bearer key_live_abc' });
    expect(out.cookies).toEqual({});
  });

  it('leaves a request without the session cookie as it came (an API client)', () => {
    const event = request({ 'x-console-request': '1' }, { other: 'x' });
    const before = JSON.parse(JSON.stringify(event.request)) as CloudFrontRequest;
    expect(handler(event)).toEqual(before);
  });

  it('sets no bearer from an empty cookie', () => {
    const out = handler(request({ 'x-console-request': '1' }, { [SESSION_COOKIE]: '' }));
    expect(out.headers.authorization).toBeUndefined();
    expect(out.cookies).toEqual({});
  });
});

describe('console paths edge function', () => {
  const handler = load(CONSOLE_PATHS_CODE);

  it.each([
    ['/console', '/console/index.html'],
    ['/console/', '/console/index.html'],
    ['/console/connected', '/console/connected.html'],
    ['/console/console.js', '/console/console.js'],
  ])('serves %s from %s', (uri, object) => {
    expect(handler(request({}, {}, uri)).uri).toBe(object);
  });
});
