// The webhook test vectors both clients verify against (clients/webhook-vectors.json) are what the
// service's signer produces, and the service's own verifier agrees with every expected outcome.
import { readFileSync } from 'node:fs';
import { verifyWebhook, WebhookVerificationError } from '../../functions/webhooks/domain/signing';
import { buildVectors, VECTORS_FILE } from '../../scripts/webhook-vectors';

const committed = JSON.parse(readFileSync(VECTORS_FILE, 'utf8')) as ReturnType<typeof buildVectors>;

describe('webhook test vectors', () => {
  it('are the signer’s current output (regenerate with `npm run clients:generate`)', () => {
    expect(committed).toEqual(buildVectors());
  });

  it('cover acceptance and every refusal reason', () => {
    const reasons = new Set(committed.vectors.map((v) => (v.expected.valid ? 'valid' : v.expected.reason)));
    expect([...reasons].sort()).toEqual([
      'invalid_timestamp',
      'missing_headers',
      'no_matching_signature',
      'timestamp_out_of_tolerance',
      'valid',
    ]);
  });

  it.each(committed.vectors.map((v) => [v.name, v] as const))(
    'the service’s verifier: %s',
    (_name, vector) => {
      const outcomes = vector.secrets.map((secret) => {
        try {
          return verifyWebhook(secret, vector.headers, vector.payload, {
            nowSeconds: vector.now,
            toleranceSeconds: committed.tolerance_seconds,
          });
        } catch (error) {
          expect(error).toBeInstanceOf(WebhookVerificationError);
          return undefined;
        }
      });
      const accepted = outcomes.some((outcome) => outcome !== undefined);
      expect(accepted).toBe(vector.expected.valid);
      if (accepted) expect(outcomes.find((o) => o !== undefined)).toEqual(JSON.parse(vector.payload));
    },
  );
});
