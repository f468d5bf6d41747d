// Identifiers: a type prefix and 20 random base32 characters (100 bits), sortable by nothing.
import { createHash, randomFillSync } from 'node:crypto';
import * as z from 'zod/mini';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * Random bytes drawn from a pool refilled from the CSPRNG 4 KiB at a time, each byte handed out once:
 * `randomBytes(20)` per id took 2.8 µs (a crypto job and a Buffer per call), the pool 0.2 µs, and the
 * delivery pipeline makes several ids per delivery. The uuid package draws its v4 ids so.
 */
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let pooled = 0;

export function randomBase32(length: number): string {
  if (length > POOL_BYTES) throw new RangeError(`at most ${POOL_BYTES} random characters at once`);
  if (pooled < length) {
    randomFillSync(pool);
    pooled = POOL_BYTES;
  }
  const from = POOL_BYTES - pooled;
  pooled -= length;
  let out = '';
  for (let i = from; i < from + length; i++) out += ALPHABET[pool[i]! & 31];
  return out;
}

export type IdPrefix =
  | 'org'
  | 'key'
  | 'app'
  | 'bnd'
  | 'conn'
  | 'job'
  | 'we'
  | 'evt'
  | 'dlv'
  | 'att'
  | 'req'
  | 'lnk'
  | 'doc'
  // portal links and the sessions they open (platform/portal-sessions.ts)
  | 'pln'
  | 'pss';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase32(20)}`;
}

/** What `newId(prefix)` makes, and nothing else. */
export const idPattern = (prefix: IdPrefix): RegExp => new RegExp(`^${prefix}_[a-z2-7]{20}$`);

export function isId(prefix: IdPrefix, value: string): boolean {
  return idPattern(prefix).test(value);
}

/**
 * An id derived from a name: the same name always gives the same id (a retried import writes the same
 * vault document and publishes the same event id, which receivers and the fan-out deduplicate on).
 */
export function derivedId(prefix: IdPrefix, name: string): string {
  const digest = createHash('sha256').update(name).digest();
  let out = '';
  for (let i = 0; i < 20; i++) out += ALPHABET[digest[i]! & 31];
  return `${prefix}_${out}`;
}

/**
 * An id of one kind as a zod schema: request paths and bodies validate with it, views are typed by
 * it, and the OpenAPI document shows its pattern.
 */
export const idSchema = (prefix: IdPrefix, what: string) =>
  z.string().check(z.regex(idPattern(prefix), `must be ${what} id (${prefix}_ and 20 characters a-z, 2-7)`));
