// Envelope encryption: a fresh KMS data key per value, AES-256-GCM, the encryption context bound as AAD.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeyManagement } from './ports';

/** What is stored: ciphertext, wrapped data key and the master key's id, together. */
export interface SealedValue {
  v: 1;
  keyId: string;
  dataKey: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

export function canonicalContext(context: Record<string, string>): Buffer {
  const sorted = Object.keys(context)
    .sort()
    .map((k) => [k, context[k]]);
  return Buffer.from(JSON.stringify(sorted), 'utf8');
}

export async function seal(
  keys: KeyManagement,
  plaintext: string,
  context: Record<string, string>,
): Promise<SealedValue> {
  const dataKey = await keys.generateDataKey(context);
  try {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', dataKey.plaintext, iv);
    cipher.setAAD(canonicalContext(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return {
      v: 1,
      keyId: dataKey.keyId,
      dataKey: dataKey.ciphertext.toString('base64'),
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      ciphertext: ciphertext.toString('base64'),
    };
  } finally {
    dataKey.plaintext.fill(0);
  }
}

export async function open(
  keys: KeyManagement,
  sealed: SealedValue,
  context: Record<string, string>,
): Promise<string> {
  // The key it was sealed under, not the one configured now: a key change must not strand old data.
  const dataKey = await keys.decryptDataKey(Buffer.from(sealed.dataKey, 'base64'), context, sealed.keyId);
  try {
    const decipher = createDecipheriv('aes-256-gcm', dataKey, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(canonicalContext(context));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([
      decipher.update(Buffer.from(sealed.ciphertext, 'base64')),
      decipher.final(),
    ]).toString('utf8');
  } finally {
    dataKey.fill(0);
  }
}
