// The pure parts of the connect flow: return_url rules, signed state, PKCE, cookie and redirect building.
import {
  BROWSER_COOKIE,
  appendQuery,
  authorizeUrl,
  bindingCookie,
  browserBinding,
  newConnectToken,
  newPkce,
  pkceChallenge,
  readCookie,
  sha256,
  signState,
  verifyState,
} from '../../functions/connectors/domain/flow-crypto';
import { returnUrlProblem } from '../../functions/connectors/api/schemas';

describe('return_url rules', () => {
  const outside = { loopbackAllowed: true };
  const production = { loopbackAllowed: false };

  it.each([
    'https://app.example.com/done',
    'https://app.example.com:8443/done?tenant=1#frag',
    'http://localhost:3000/back',
    'http://127.0.0.1/back',
  ])('accepts %s outside production', (url) => {
    expect(returnUrlProblem(url, outside)).toBeUndefined();
  });

  it.each([
    ['/relative', 'must be an absolute URL'],
    ['app.example.com/done', 'must be an absolute URL'],
    ['http://app.example.com/done', 'must use https'],
    ['http://localhost.evil.com/done', 'must use https'],
    ['https://user:pw@app.example.com/', 'must not contain credentials'],
    ['https://user@app.example.com/', 'must not contain credentials'],
    ['ftp://app.example.com/', 'must be an absolute https URL'],
    ['javascript:alert(1)', 'must be an absolute https URL'],
    [`https://app.example.com/${'a'.repeat(2100)}`, 'at most 2048'],
  ])('refuses %s', (url, problem) => {
    expect(returnUrlProblem(url, outside)).toContain(problem);
  });

  it('refuses http on localhost in production', () => {
    expect(returnUrlProblem('http://localhost:3000/back', production)).toBe('must use https');
    expect(returnUrlProblem('https://app.example.com/', production)).toBeUndefined();
  });
});

describe('signed state', () => {
  const key = Buffer.alloc(32, 7);
  const payload = { c: 'conn_abc', n: 'nonce', e: 1_000_000, p: 'practice', t: 'standard' };

  it('verifies what it signed until it expires', () => {
    const state = signState(key, payload);
    expect(verifyState(key, state, 999_999)).toEqual({ ok: true, payload });
    expect(verifyState(key, state, 1_000_001)).toEqual({ ok: false, reason: 'expired', payload });
  });

  it('refuses a changed payload, a changed signature, another key and garbage', () => {
    const state = signState(key, payload);
    const [body, signature] = state.split('.');
    const forged = Buffer.from(JSON.stringify({ ...payload, t: 'admin' })).toString('base64url');
    expect(verifyState(key, `${forged}.${signature}`, 0)).toEqual({ ok: false, reason: 'signature' });
    const flipped = signature!.startsWith('A') ? `B${signature!.slice(1)}` : `A${signature!.slice(1)}`;
    expect(verifyState(key, `${body}.${flipped}`, 0)).toEqual({ ok: false, reason: 'signature' });
    expect(verifyState(Buffer.alloc(32, 8), state, 0)).toEqual({ ok: false, reason: 'signature' });
    for (const bad of [undefined, '', 'garbage', `${body}.`, `${body}.${signature}.x`]) {
      expect(verifyState(key, bad, 0)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('refuses a well-signed payload of the wrong shape', () => {
    const state = signState(key, { ...payload, e: 'soon' } as never);
    expect(verifyState(key, state, 0)).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('PKCE', () => {
  it('derives the S256 challenge of RFC 7636 appendix B', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes a fresh 43-character verifier each time, with its challenge', () => {
    const a = newPkce();
    const b = newPkce();
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.verifier).not.toBe(b.verifier);
    expect(a.challenge).toBe(pkceChallenge(a.verifier));
  });
});

describe('connect tokens and the browser binding', () => {
  it('stores only the SHA-256 of a 32-byte token', () => {
    const { token, hash } = newConnectToken();
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(hash).toBe(sha256(token));
    expect(hash).not.toContain(token);
  });

  it('reuses a well-formed binding cookie and replaces anything else', () => {
    const value = 'a'.repeat(43);
    expect(browserBinding(`x=1; ${BROWSER_COOKIE}=${value}`)).toEqual({ value, isNew: false });
    expect(browserBinding(`${BROWSER_COOKIE}=short`).isNew).toBe(true);
    expect(browserBinding(undefined).isNew).toBe(true);
    expect(readCookie('a=1; b=two=2', 'b')).toBe('two=2');
  });

  it('sets HttpOnly, SameSite=Lax, the API path, and Secure except on http', () => {
    expect(bindingCookie('v', 'https://abc.execute-api.eu-west-1.amazonaws.com/dev')).toBe(
      `${BROWSER_COOKIE}=v; Path=/dev/connectors/v1; Max-Age=600; HttpOnly; SameSite=Lax; Secure`,
    );
    expect(bindingCookie('v', 'http://localhost:3000')).toBe(
      `${BROWSER_COOKIE}=v; Path=/connectors/v1; Max-Age=600; HttpOnly; SameSite=Lax`,
    );
  });
});

describe('redirect building', () => {
  it.each([
    ['https://app.example.com/done', 'https://app.example.com/done?connection_id=conn_1'],
    ['https://app.example.com/done?', 'https://app.example.com/done?connection_id=conn_1'],
    ['https://app.example.com/done?a=b%20c&d', 'https://app.example.com/done?a=b%20c&d&connection_id=conn_1'],
    [
      'https://app.example.com/done?a=1#section',
      'https://app.example.com/done?a=1&connection_id=conn_1#section',
    ],
    ['http://localhost:3000', 'http://localhost:3000/?connection_id=conn_1'],
  ])('appends to %s keeping its query and fragment', (returnUrl, expected) => {
    expect(appendQuery(returnUrl, 'connection_id', 'conn_1')).toBe(expected);
  });

  it.each([
    [
      'https://app.example.com/done?connection_id=evil&a=1',
      'https://app.example.com/done?a=1&connection_id=conn_1',
    ],
    [
      'https://app.example.com/done?error=x&connection%5Fid=y&b',
      'https://app.example.com/done?b&connection_id=conn_1',
    ],
  ])('drops a connection_id or error %s already carries, so there is one', (returnUrl, expected) => {
    expect(appendQuery(returnUrl, 'connection_id', 'conn_1')).toBe(expected);
  });

  it('redirects to the normalised form of a return_url stored raw (CR/LF stripped, IDN in punycode)', () => {
    const location = appendQuery(
      'https://bücher.example/ret\r\nSet-Cookie: x=1?q=é',
      'error',
      'access_denied',
    );
    expect(location).toBe('https://xn--bcher-kva.example/retSet-Cookie:%20x=1?q=%C3%A9&error=access_denied');
    expect(location).not.toMatch(/[\r\n\u0080-\uffff]/);
  });

  it('builds the authorize request with S256 and keeps the configured query', () => {
    const url = new URL(
      authorizeUrl('https://provider.example/oauth/authorize?prompt=consent', {
        clientId: 'client',
        redirectUri: 'https://api.example/connectors/v1/oauth/practice/callback',
        scopes: ['a.read', 'b.read'],
        separator: ' ',
        state: 'st',
        challenge: 'ch',
      }),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      prompt: 'consent',
      response_type: 'code',
      client_id: 'client',
      redirect_uri: 'https://api.example/connectors/v1/oauth/practice/callback',
      scope: 'a.read b.read',
      state: 'st',
      code_challenge: 'ch',
      code_challenge_method: 'S256',
    });
  });
});
