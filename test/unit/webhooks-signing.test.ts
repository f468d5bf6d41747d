import { Webhook } from 'standardwebhooks';
import {
  generateSigningSecret,
  sign,
  verifyWebhook,
  webhookHeaders,
} from '../../functions/webhooks/domain/signing';

const body = JSON.stringify({
  id: 'evt_1',
  type: 'webhook.test',
  occurred_at: '2026-01-01T00:00:00.000Z',
  data: {},
});
const now = () => Math.floor(Date.now() / 1000);

describe('Standard Webhooks signing', () => {
  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(secret);
  });

  it('signs what the standardwebhooks library verifies', () => {
    const secret = generateSigningSecret();
    const headers = webhookHeaders([secret], 'evt_1', now(), body);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('produces the same signature as the standardwebhooks library', () => {
    const secret = generateSigningSecret();
    const ts = now();
    expect(sign(secret, 'evt_1', ts, body)).toBe(
      new Webhook(secret).sign('evt_1', new Date(ts * 1000), body),
    );
  });

  it('signs with every active secret during rotation, each verifiable alone', () => {
    const [next, previous] = [generateSigningSecret(), generateSigningSecret()];
    const headers = webhookHeaders([next, previous], 'evt_2', now(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [next, previous]) {
      expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
      expect(verifyWebhook(secret, headers, body)).toEqual(JSON.parse(body));
    }
    expect(() => new Webhook(generateSigningSecret()).verify(body, { ...headers })).toThrow();
  });

  it('verifies what the standardwebhooks library signs', () => {
    const secret = generateSigningSecret();
    const ts = new Date();
    const signature = new Webhook(secret).sign('evt_3', ts, body);
    const headers = {
      'Webhook-Id': 'evt_3',
      'Webhook-Timestamp': String(Math.floor(ts.getTime() / 1000)),
      'Webhook-Signature': signature,
    };
    expect(verifyWebhook(secret, headers, Buffer.from(body))).toEqual(JSON.parse(body));
    expect(verifyWebhook(secret, new Headers(headers), body)).toEqual(JSON.parse(body));
  });

  it('refuses a tampered body, a wrong secret, missing headers and other signature versions', () => {
    const secret = generateSigningSecret();
    const headers = webhookHeaders([secret], 'evt_4', now(), body);
    expect(() => verifyWebhook(secret, headers, body.replace('webhook.test', 'webhook.tesT'))).toThrow(
      'No matching signature',
    );
    expect(() => verifyWebhook(generateSigningSecret(), headers, body)).toThrow('No matching signature');
    expect(() => verifyWebhook(secret, { ...headers, 'webhook-id': 'evt_5' }, body)).toThrow(
      'No matching signature',
    );
    expect(() => verifyWebhook(secret, { 'webhook-id': 'evt_4' }, body)).toThrow('Missing webhook headers');
    const v2 = headers['webhook-signature'].replace('v1,', 'v2,');
    expect(() => verifyWebhook(secret, { ...headers, 'webhook-signature': v2 }, body)).toThrow(
      'No matching signature',
    );
  });

  it('refuses timestamps more than five minutes away, either side', () => {
    const secret = generateSigningSecret();
    for (const offset of [-301, 301]) {
      const headers = webhookHeaders([secret], 'evt_6', now() + offset, body);
      expect(() => verifyWebhook(secret, headers, body)).toThrow('Timestamp outside the tolerance window');
    }
    for (const offset of [-299, 299]) {
      expect(verifyWebhook(secret, webhookHeaders([secret], 'evt_6', now() + offset, body), body)).toEqual(
        JSON.parse(body),
      );
    }
    expect(() =>
      verifyWebhook(
        secret,
        { ...webhookHeaders([secret], 'e', now(), body), 'webhook-timestamp': 'soon' },
        body,
      ),
    ).toThrow('Invalid webhook-timestamp');
  });
});
