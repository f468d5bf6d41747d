import {
  addressAllowed,
  classifyAddress,
  REFUSED_ADDRESS_MESSAGE,
  shownErrorMessage,
} from '../../functions/platform/addresses';
import { toAttemptView } from '../../functions/webhooks/api/views';
import { endpointUrlProblem } from '../../functions/webhooks/domain/endpoint-schemas';

describe('endpoint URL rules', () => {
  const dev = { loopbackAllowed: true };
  const prod = { loopbackAllowed: false };

  it('accepts https anywhere and http on localhost / 127.0.0.1 outside production', () => {
    expect(endpointUrlProblem('https://hooks.example.com/in?x=1', dev)).toBeUndefined();
    expect(endpointUrlProblem('https://hooks.example.com/in', prod)).toBeUndefined();
    expect(endpointUrlProblem('http://localhost:3000/in', dev)).toBeUndefined();
    expect(endpointUrlProblem('http://127.0.0.1:3000/in', dev)).toBeUndefined();
  });

  it('refuses http elsewhere, and everywhere in production', () => {
    expect(endpointUrlProblem('http://hooks.example.com/in', dev)).toMatch(/^must use https/);
    expect(endpointUrlProblem('http://10.0.0.1/in', dev)).toMatch(/^must use https/);
    expect(endpointUrlProblem('http://localhost:3000/in', prod)).toBe('must use https');
    expect(endpointUrlProblem('ws://hooks.example.com', dev)).toBe('must use https');
  });

  it('refuses relative URLs and embedded credentials', () => {
    expect(endpointUrlProblem('hooks.example.com/in', dev)).toBe('must be an absolute URL');
    expect(endpointUrlProblem('https://u:p@hooks.example.com', dev)).toMatch(/credentials/);
    expect(endpointUrlProblem('https://u@hooks.example.com', prod)).toMatch(/credentials/);
  });

  it('refuses literal private, loopback, link-local and metadata addresses in production only', () => {
    const cases: [string, string][] = [
      ['https://10.1.2.3/in', 'private'],
      ['https://192.168.1.1/in', 'private'],
      ['https://127.0.0.1/in', 'loopback'],
      ['https://[::1]/in', 'loopback'],
      ['https://169.254.169.254/latest', 'metadata'],
      ['https://169.254.10.10/in', 'link-local'],
      ['https://100.64.1.1/in', 'cgnat'],
      ['https://[::ffff:10.0.0.1]/in', 'ipv4-mapped'],
      ['https://[fd00:ec2::254]/in', 'metadata'],
    ];
    for (const [url, kind] of cases) {
      expect(endpointUrlProblem(url, prod)).toBe(`must not point at a ${kind} address`);
      expect(endpointUrlProblem(url, dev)).toBeUndefined();
    }
    expect(endpointUrlProblem('https://localhost/in', prod)).toBe('must not point at localhost');
    expect(endpointUrlProblem('https://8.8.8.8/in', prod)).toBeUndefined();
  });

  it('refuses hosts that are not DNS names, as the documented pattern does', () => {
    for (const url of [
      "https://exa'mple.com/in",
      'https://a*.example.com/in',
      'https://a..b.com/in',
      'https://-a.example.com/in',
      'https://a-.example.com/in',
      'https://a_b.example.com/in',
      `https://${'a'.repeat(64)}.example.com/in`,
    ]) {
      expect({ url, problem: endpointUrlProblem(url, prod) }).toEqual({
        url,
        problem: 'must name a DNS host (letters, digits and hyphens, dot-separated) or an IP address',
      });
      expect(endpointUrlProblem(url, dev)).toBeDefined();
    }
    expect(endpointUrlProblem('https://localhost./in', prod)).toBe('must not point at localhost');
    expect(endpointUrlProblem('https://app.localhost./in', prod)).toBe('must not point at localhost');
    expect(endpointUrlProblem('https://hooks.example.com./in', prod)).toBeUndefined();
    expect(endpointUrlProblem('https://bücher.example/in', prod)).toBeUndefined(); // IDN, punycode
  });

  it('refuses a URL whose host is empty as typed', () => {
    for (const url of ['https:///cb', 'https:////cb', 'https:\\\\\\cb', 'https://:443/cb']) {
      expect({ url, problem: endpointUrlProblem(url, prod) }).toEqual({ url, problem: 'must name a host' });
    }
  });
});

describe('address classification', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.1.2.3', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.0.1', 'private'],
    ['fc00::1', 'private'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['169.254.169.254', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['::ffff:127.0.0.1', 'ipv4-mapped'],
    ['::ffff:8.8.8.8', 'ipv4-mapped'],
    ['64:ff9b::a00:1', 'ipv4-mapped'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    // The special-purpose ranges an outside probe found missing (IANA registries, ipaddr.js ranges).
    ['fec0::1', 'private'],
    ['64:ff9b:1::a00:1', 'ipv4-mapped'],
    ['2001::1', 'ipv4-mapped'],
    ['2001:10::1', 'reserved'],
    ['2001:20::1', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['::ffff:0:7f00:1', 'ipv4-mapped'],
    ['2002:a00:1::1', 'ipv4-mapped'],
    ['2001:2::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['5f00::1', 'reserved'],
    ['100:0:0:1::1', 'reserved'],
    ['192.31.196.1', 'reserved'],
    ['192.52.193.1', 'reserved'],
    ['192.175.48.1', 'reserved'],
    ['2620:4f:8000::1', 'reserved'],
    ['4000::1', 'reserved'], // outside IANA's 2000::/3 global unicast space
    ['[fe80::1%eth0]', 'link-local'],
    ['2a00:1450:4001::1', 'public'],
    ['1.1.1.1', 'public'],
  ])('classifies %s as %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('never lets a special-purpose address through addressAllowed, loopback only outside production', () => {
    for (const address of [
      'fec0::1',
      '64:ff9b:1::1',
      '2001::1',
      '2001:10::1',
      '2001:20::1',
      '192.88.99.1',
      '::ffff:0:0:1',
    ]) {
      expect(addressAllowed(address, { allowLoopback: true })).toBe(false);
    }
    expect(addressAllowed('127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(addressAllowed('127.0.0.1', { allowLoopback: false })).toBe(false);
  });
});

describe('refused-address messages', () => {
  it('shows neither the address nor its class in attempt history or lastError', () => {
    const stored = 'Refused to connect to private address 10.1.2.3';
    const attempt = toAttemptView({
      deliveryId: 'dlv_x',
      attempt: 1,
      cycle: 1,
      attemptedAt: Date.parse('2026-01-01T00:00:00.000Z'),
      outcome: 'failed',
      errorKind: 'blocked_address',
      errorMessage: stored,
      latencyMs: 0,
      responseBody: '',
      ttl: 0,
    });
    expect(attempt.errorMessage).toBe(REFUSED_ADDRESS_MESSAGE);
    expect(JSON.stringify(attempt)).not.toContain('10.1.2.3');
    expect(shownErrorMessage('connection', 'ECONNREFUSED')).toBe('ECONNREFUSED');
    expect(shownErrorMessage('blocked_address', stored)).not.toMatch(/10\.1\.2\.3|private/);
  });
});
