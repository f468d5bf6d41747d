// KeyManagement port in process: a master key on disk wraps data keys with AES-256-GCM, context as AAD.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataKey, KeyManagement } from '../../platform/ports';
import { canonicalContext } from '../../platform/envelope';
import { LocalDataError } from './local-data-error';

export const LOCAL_KEY_ID = 'local-master-key';

/** Names the key without revealing it: written beside it, so a different key is noticed at start. */
const fingerprintOf = (key: Buffer): string =>
  createHmac('sha256', key).update('local master key fingerprint').digest('hex').slice(0, 32);

/**
 * The master key on disk, checked before anything is opened with it: a missing key where data sealed
 * with it exists, a key file that is not 32 bytes of base64, or another key than the one whose
 * fingerprint was recorded, refuses to start (a fresh key would leave every sealed value unreadable,
 * and each use of one a 500).
 */
function loadMasterKey(keyPath: string, sealedValues: () => number): Buffer {
  const fingerprintPath = `${keyPath}.fingerprint`;
  const recorded = existsSync(fingerprintPath) ? readFileSync(fingerprintPath, 'utf8').trim() : undefined;
  if (!existsSync(keyPath)) {
    const sealed = sealedValues();
    if (sealed > 0 || recorded) {
      throw new LocalDataError(
        `${keyPath} is missing, but the data beside it holds ${sealed || 'values'} sealed with it ` +
          '(webhook signing secrets, provider tokens): restore the file from a backup, or move the ' +
          'data directory aside to start empty. A new key would not open them.',
      );
    }
    mkdirSync(dirname(keyPath), { recursive: true });
    const key = randomBytes(32);
    writeFileSync(keyPath, key.toString('base64'), { mode: 0o600 });
    writeFileSync(fingerprintPath, fingerprintOf(key) + '\n', { mode: 0o600 });
    return key;
  }
  const text = readFileSync(keyPath, 'utf8').trim();
  const key = Buffer.from(text, 'base64');
  if (key.length !== 32 || key.toString('base64') !== text) {
    throw new LocalDataError(
      `${keyPath} is corrupt (not 32 bytes in base64): restore it from a backup; the data sealed ` +
        'with it cannot be opened without it.',
    );
  }
  if (recorded && recorded !== fingerprintOf(key)) {
    throw new LocalDataError(
      `${keyPath} is not the master key this data directory was sealed with (its fingerprint differs ` +
        `from ${fingerprintPath}): restore the right key from a backup.`,
    );
  }
  if (!recorded) writeFileSync(fingerprintPath, fingerprintOf(key) + '\n', { mode: 0o600 });
  return key;
}

export class LocalKeyManagement implements KeyManagement {
  private readonly masterKey: Buffer;
  readonly keyId = LOCAL_KEY_ID;

  /**
   * @param keyPath file holding the master key, created on first use; omitted: a key in memory.
   * @param sealedValues how many values sealed with it the data directory holds (read only when the
   *   key file is missing).
   */
  constructor(keyPath?: string, sealedValues: () => number = () => 0) {
    this.masterKey = keyPath ? loadMasterKey(keyPath, sealedValues) : randomBytes(32);
  }

  async generateDataKey(context: Record<string, string>): Promise<DataKey> {
    const plaintext = randomBytes(32);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.masterKey, iv);
    cipher.setAAD(canonicalContext(context));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return { plaintext, ciphertext: Buffer.concat([iv, cipher.getAuthTag(), body]), keyId: this.keyId };
  }

  async decryptDataKey(ciphertext: Buffer, context: Record<string, string>, keyId?: string): Promise<Buffer> {
    // One master key here: a data key of another (a copied database) cannot open, as with KMS.
    if (keyId !== undefined && keyId !== this.keyId) {
      throw new Error('Data key was generated under another master key');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.masterKey, ciphertext.subarray(0, 12));
    decipher.setAAD(canonicalContext(context));
    decipher.setAuthTag(ciphertext.subarray(12, 28));
    try {
      return Buffer.concat([decipher.update(ciphertext.subarray(28)), decipher.final()]);
    } catch {
      throw new Error('Data key could not be decrypted with this encryption context');
    }
  }
}
