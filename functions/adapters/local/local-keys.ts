// KeyManagement port in process: a master key on disk wraps data keys with AES-256-GCM, context as AAD.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataKey, KeyManagement } from '../../platform/ports';
import { canonicalContext } from '../../platform/envelope';

export class LocalKeyManagement implements KeyManagement {
  private readonly masterKey: Buffer;
  readonly keyId = 'local-master-key';

  /** @param keyPath file holding the master key, created on first use; omitted: a key in memory. */
  constructor(keyPath?: string) {
    if (!keyPath) {
      this.masterKey = randomBytes(32);
    } else if (existsSync(keyPath)) {
      this.masterKey = Buffer.from(readFileSync(keyPath, 'utf8').trim(), 'base64');
    } else {
      mkdirSync(dirname(keyPath), { recursive: true });
      this.masterKey = randomBytes(32);
      writeFileSync(keyPath, this.masterKey.toString('base64'), { mode: 0o600 });
    }
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
