// The URL pattern the OpenAPI document shows for return_url and webhook endpoint urls promises that a
// URL of that form is accepted in every stage: hold both URL rules to it, in production mode (the
// strictest), over edge cases and a few thousand generated URLs.
import { returnUrlProblem } from '../../functions/connectors/api/schemas';
import { HTTPS_URL_PATTERN } from '../../functions/platform/urls';
import { endpointUrlProblem } from '../../functions/webhooks/domain/endpoint-schemas';

const pattern = new RegExp(HTTPS_URL_PATTERN);
const production = { loopbackAllowed: false };

const problems = (url: string) => ({
  url,
  returnUrl: returnUrlProblem(url, production),
  endpointUrl: endpointUrlProblem(url, production),
});

/** A small deterministic generator (mulberry32), so a failure names a URL that fails again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generated(count: number): string[] {
  const next = random(16);
  const pick = (chars: string, min: number, max: number) =>
    Array.from(
      { length: min + Math.floor(next() * (max - min + 1)) },
      () => chars[Math.floor(next() * chars.length)],
    ).join('');
  const label = () => pick('abcdefghijklmnopqrstuvwxyz0123456789-', 1, 12).replace(/^-+|-+$/g, '') || 'a';
  const urlChars = "abcXYZ019._~!$&'()*+,;=:@%/-";
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    const labels = Array.from({ length: 1 + Math.floor(next() * 3) }, label);
    const top =
      pick('abcdefghijklmnopqrstuvwxyz', 1, 1) + pick('abcdefghijklmnopqrstuvwxyz0123456789-', 0, 8);
    const port = next() < 0.3 ? `:${Math.floor(next() * 65536)}` : '';
    const path = next() < 0.6 ? `/${pick(urlChars, 0, 20)}` : '';
    const query = next() < 0.4 ? `?${pick(urlChars + '?', 0, 20)}` : '';
    urls.push(`https://${labels.join('.')}.${top.replace(/-+$/, '')}${port}${path}${query}`);
  }
  return urls;
}

describe('the documented https URL pattern', () => {
  it('admits only URLs that both URL rules accept in production', () => {
    const samples = [
      'https://example.com',
      'https://example.com/',
      'https://a.b.example.co/path/to?x=1&y=%2F',
      'https://example.com:0/',
      'https://example.com:65535/x',
      'https://0.example/x', // a numeric label, but the host does not end in a number
      'https://a-b.c-d/',
      "https://example.com/!$&'()*+,;=:@%41/-._~?q=/?",
      `https://example.com/${'a'.repeat(2000)}`,
      ...generated(3000),
    ].filter((url) => pattern.test(url));
    expect(samples.length).toBeGreaterThan(1500);
    for (const url of samples) {
      expect(problems(url)).toEqual({ url, returnUrl: undefined, endpointUrl: undefined });
    }
  });

  it('does not admit what a stage refuses: http, address literals, localhost, bad punycode, ports past 65535', () => {
    for (const url of [
      'http://example.com/',
      'http://localhost:3000/',
      'https://localhost/',
      'https://app.localhost/',
      'https://127.0.0.1/',
      'https://10.0.0.1/',
      'https://1.2/',
      'https://[::1]/',
      'https://xn--zz.com/',
      'https://a.xn--zz/',
      'https://example.com:65536/',
      'https://user:pass@example.com/',
      'https://example.com/a b',
      'https://example.com/#fragment',
      'https://Example.com/',
      'https://example.com/%zz', // WHATWG takes it, RFC 3986 does not: not the documented form
    ]) {
      expect({ url, admitted: pattern.test(url) }).toEqual({ url, admitted: false });
    }
  });
});

describe('hosts the pattern refuses are refused by both URL rules', () => {
  it.each([
    'https:///cb',
    'https:////cb',
    "https://exa'mple.com/",
    'https://a*.example.com/',
    'https://a..b.com/',
    'https://-a.example.com/',
  ])('%s', (url) => {
    const found = problems(url);
    expect(pattern.test(url)).toBe(false);
    expect(found.returnUrl).toBeDefined();
    expect(found.endpointUrl).toBeDefined();
  });

  it('return_url https:///cb is refused, not sent to https://cb/', () => {
    expect(returnUrlProblem('https:///cb', { loopbackAllowed: true })).toBe('must name a host');
    expect(returnUrlProblem('https:cb.example.com/x', production)).toBeUndefined();
  });
});
