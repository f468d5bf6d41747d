// API key format `lpk_<key id>_<secret>`: only a SHA-256 of the secret is stored, compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { randomBase32 } from './ids';

export const API_KEY_PREFIX = 'lpk';

export interface ParsedApiKey {
  keyId: string;
  secret: string;
}

const KEY_PATTERN = /^lpk_([a-z2-7]{20})_([A-Za-z0-9_-]{43})$/;

export function parseApiKey(presented: string): ParsedApiKey | undefined {
  const match = KEY_PATTERN.exec(presented);
  return match ? { keyId: `key_${match[1]}`, secret: match[2]! } : undefined;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** A new key: the id to store, the hash to store, and the full key shown once to its owner. */
export function generateApiKey(): { keyId: string; secretHash: string; apiKey: string } {
  const idPart = randomBase32(20);
  const secret = randomBytes(32).toString('base64url');
  return {
    keyId: `key_${idPart}`,
    secretHash: hashSecret(secret),
    apiKey: `${API_KEY_PREFIX}_${idPart}_${secret}`,
  };
}

export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}
