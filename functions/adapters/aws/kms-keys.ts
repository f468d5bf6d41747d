// KeyManagement port on AWS KMS: one GenerateDataKey per sealed value, bound to its encryption context.
import type { KMSClient } from './sdk/kms';
import type { DataKey, KeyManagement } from '../../platform/ports';
import type { ClientRef } from './clients';

const commands = () => import('./sdk/kms');

export class KmsKeyManagement implements KeyManagement {
  constructor(
    private readonly keyId: string,
    private readonly client: ClientRef<KMSClient>,
  ) {}

  async generateDataKey(context: Record<string, string>): Promise<DataKey> {
    const [client, { GenerateDataKeyCommand }] = await Promise.all([this.client, commands()]);
    const out = await client.send(
      new GenerateDataKeyCommand({ KeyId: this.keyId, KeySpec: 'AES_256', EncryptionContext: context }),
    );
    if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS returned no data key');
    return {
      plaintext: Buffer.from(out.Plaintext),
      ciphertext: Buffer.from(out.CiphertextBlob),
      keyId: out.KeyId ?? this.keyId,
    };
  }

  /**
   * Decrypts with the key the data key names (`keyId`, stored with it), falling back to the configured
   * key for a caller that has none. Naming a key (rather than leaving KMS to read it from the blob) is
   * KMS's advice: the call fails unless the ciphertext is of exactly that key.
   */
  async decryptDataKey(ciphertext: Buffer, context: Record<string, string>, keyId?: string): Promise<Buffer> {
    const [client, { DecryptCommand }] = await Promise.all([this.client, commands()]);
    const out = await client.send(
      new DecryptCommand({
        KeyId: keyId ?? this.keyId,
        CiphertextBlob: ciphertext,
        EncryptionContext: context,
      }),
    );
    if (!out.Plaintext) throw new Error('KMS returned no plaintext');
    return Buffer.from(out.Plaintext);
  }
}
