// Identifiers: a type prefix and 20 random base32 characters (100 bits), sortable by nothing.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export function randomBase32(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i]! & 31];
  return out;
}

export type IdPrefix =
  'org' | 'key' | 'app' | 'bnd' | 'conn' | 'job' | 'we' | 'evt' | 'dlv' | 'att' | 'req' | 'lnk';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase32(20)}`;
}

export function isId(prefix: IdPrefix, value: string): boolean {
  return new RegExp(`^${prefix}_[a-z2-7]{20}$`).test(value);
}
