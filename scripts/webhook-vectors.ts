// Webhook test vectors from the service's own signer (functions/webhooks/domain/signing.ts), shared by
// the service's tests and both clients' tests (clients/webhook-vectors.json): what a receiver must
// accept and refuse, and why. `npm run clients:generate` writes the file; a unit test keeps it current.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { webhookHeaders } from '../functions/webhooks/domain/signing';

export const VECTORS_FILE = join(
  import.meta.dirname ?? new URL('.', import.meta.url).pathname,
  '..',
  'clients',
  'webhook-vectors.json',
);

export type VectorFailure =
  'missing_headers' | 'invalid_timestamp' | 'timestamp_out_of_tolerance' | 'no_matching_signature';

export interface Vector {
  name: string;
  /** The secret(s) the receiver verifies with. */
  secrets: string[];
  payload: string;
  headers: Record<string, string>;
  /** The receiver's clock, Unix seconds; the tolerance is 300 s. */
  now: number;
  expected: { valid: true } | { valid: false; reason: VectorFailure };
}

/** A fixed secret of 32 bytes, so the file is the same at every generation. */
const secret = (seed: string) => `whsec_${createHash('sha256').update(seed).digest('base64')}`;

export function buildVectors(): { tolerance_seconds: number; vectors: Vector[] } {
  const [current, previous, stranger] = [secret('current'), secret('previous'), secret('stranger')];
  const id = 'evt_q3k7m2x9c4b8n6v5z2a1';
  const at = 1767225600;
  const payload = JSON.stringify({
    id,
    type: 'vault.ingest.completed',
    occurred_at: '2026-01-01T00:00:00.000Z',
    data: { vaultId: 'vault_1', objectId: 'obj_9', durationMs: 5230, chunkCount: 42, note: 'naïve – ✓' },
  });
  const signed = webhookHeaders([current], id, at, payload);
  const rotated = webhookHeaders([current, previous], id, at, payload);
  const vector = (
    name: string,
    secrets: string[],
    headers: Record<string, string>,
    expected: Vector['expected'],
    options: { now?: number; payload?: string } = {},
  ): Vector => ({
    name,
    secrets,
    payload: options.payload ?? payload,
    headers,
    now: options.now ?? at,
    expected,
  });
  const valid = { valid: true } as const;
  const refused = (reason: VectorFailure) => ({ valid: false, reason }) as const;
  return {
    tolerance_seconds: 300,
    vectors: [
      vector('one signature, verified with its secret', [current], signed, valid),
      vector('the secret given without its whsec_ prefix', [current.slice('whsec_'.length)], signed, valid),
      vector('rotation: two signatures, verified with the new secret', [current], rotated, valid),
      vector('rotation: two signatures, verified with the previous secret', [previous], rotated, valid),
      vector(
        'a receiver holding both secrets, the signature made with one',
        [stranger, current],
        signed,
        valid,
      ),
      vector('signed with another secret', [stranger], rotated, refused('no_matching_signature')),
      vector('the body changed after signing', [current], signed, refused('no_matching_signature'), {
        payload: payload.replace('5230', '5231'),
      }),
      vector(
        'a signature of another version only',
        [current],
        { ...signed, 'webhook-signature': signed['webhook-signature'].replace(/^v1,/, 'v2,') },
        refused('no_matching_signature'),
      ),
      vector(
        'the id changed after signing',
        [current],
        { ...signed, 'webhook-id': 'evt_aaaaaaaaaaaaaaaaaaaa' },
        refused('no_matching_signature'),
      ),
      vector('the timestamp 300 s old: at the edge', [current], signed, valid, { now: at + 300 }),
      vector('the timestamp 301 s old', [current], signed, refused('timestamp_out_of_tolerance'), {
        now: at + 301,
      }),
      vector('the timestamp 301 s ahead', [current], signed, refused('timestamp_out_of_tolerance'), {
        now: at - 301,
      }),
      vector(
        'a timestamp that is not a number',
        [current],
        { ...signed, 'webhook-timestamp': '2026-01-01T00:00:00Z' },
        refused('invalid_timestamp'),
      ),
      vector(
        'no webhook-signature header',
        [current],
        { 'webhook-id': id, 'webhook-timestamp': String(at) },
        refused('missing_headers'),
      ),
      vector(
        'header names in another case',
        [current],
        Object.fromEntries(Object.entries(signed).map(([k, v]) => [k.toUpperCase(), v])),
        valid,
      ),
    ],
  };
}

export async function writeVectors(): Promise<void> {
  // Formatted as `npm run format` would, so format:check and the generator agree.
  const options = await prettier.resolveConfig(VECTORS_FILE);
  const text = await prettier.format(JSON.stringify(buildVectors()), { ...options, filepath: VECTORS_FILE });
  writeFileSync(VECTORS_FILE, text);
  console.log(`wrote ${VECTORS_FILE}`);
}
