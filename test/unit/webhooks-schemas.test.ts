import { classifyAddress } from '../../functions/webhooks/domain/addresses';
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
    ['fd00:ec2::254', 'metadata'],
    ['::ffff:127.0.0.1', 'ipv4-mapped'],
    ['::ffff:8.8.8.8', 'ipv4-mapped'],
    ['64:ff9b::a00:1', 'ipv4-mapped'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
  ])('classifies %s as %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});
