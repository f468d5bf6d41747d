// KeyManagement port on AWS KMS: one GenerateDataKey per sealed value, bound to its encryption context.
import type { KMSClient } from '@aws-sdk/client-kms';
import { DecryptCommand, GenerateDataKeyCommand } from '@aws-sdk/client-kms';
import type { DataKey, KeyManagement } from '../../platform/ports';

export class KmsKeyManagement implements KeyManagement {
  constructor(
    private readonly keyId: string,
    private readonly client: KMSClient,
  ) {}

  async generateDataKey(context: Record<string, string>): Promise<DataKey> {
    const out = await this.client.send(
      new GenerateDataKeyCommand({ KeyId: this.keyId, KeySpec: 'AES_256', EncryptionContext: context }),
    );
    if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS returned no data key');
    return {
      plaintext: Buffer.from(out.Plaintext),
      ciphertext: Buffer.from(out.CiphertextBlob),
      keyId: out.KeyId ?? this.keyId,
    };
  }

  async decryptDataKey(ciphertext: Buffer, context: Record<string, string>): Promise<Buffer> {
    const out = await this.client.send(
      new DecryptCommand({ KeyId: this.keyId, CiphertextBlob: ciphertext, EncryptionContext: context }),
    );
    if (!out.Plaintext) throw new Error('KMS returned no plaintext');
    return Buffer.from(out.Plaintext);
  }
}
