// The KeyManagement port's contract (and envelope encryption on top of it), on both adapters:
// the local master key and KMS (moto here, LocalStack or AWS elsewhere).
import { LocalKeyManagement } from '../../functions/adapters/local/local-keys';
import { awsKeys } from '../../functions/adapters/aws';
import { open, seal } from '../../functions/platform/envelope';
import type { KeyManagement } from '../../functions/platform/ports';
import { createKmsKey } from '../support/emulators';

const adapters: [string, () => Promise<KeyManagement>][] = [
  ['local (master key)', async () => new LocalKeyManagement()],
  ['aws (KMS)', async () => awsKeys(await createKmsKey())],
];

describe.each(adapters)('KeyManagement port: %s', (_name, make) => {
  let keys: KeyManagement;
  const context = { organization: 'org_1', connection: 'conn_1' };

  beforeAll(async () => {
    keys = await make();
  });

  it('generates a 256-bit data key whose ciphertext decrypts back under the same context', async () => {
    const dataKey = await keys.generateDataKey(context);
    expect(dataKey.plaintext).toHaveLength(32);
    expect(dataKey.ciphertext.equals(dataKey.plaintext)).toBe(false);
    expect((await keys.decryptDataKey(dataKey.ciphertext, { ...context })).equals(dataKey.plaintext)).toBe(
      true,
    );
  });

  it('refuses to decrypt a data key under another encryption context', async () => {
    const dataKey = await keys.generateDataKey(context);
    await expect(
      keys.decryptDataKey(dataKey.ciphertext, { ...context, connection: 'conn_2' }),
    ).rejects.toThrow();
  });

  it('seals and opens a value; the sealed form holds no plaintext and differs each time', async () => {
    const secret = 'refresh-token-value-1234567890';
    const a = await seal(keys, secret, context);
    const b = await seal(keys, secret, context);
    expect(JSON.stringify(a)).not.toContain(secret);
    expect(a.ciphertext).not.toEqual(b.ciphertext);
    expect(await open(keys, a, context)).toBe(secret);
    await expect(open(keys, a, { organization: 'org_2', connection: 'conn_1' })).rejects.toThrow();
  });

  it('opens a value only under the master key it names', async () => {
    const sealed = await seal(keys, 'value', context);
    await expect(open(keys, { ...sealed, keyId: 'another-key' }, context)).rejects.toThrow();
  });

  it('detects a tampered ciphertext', async () => {
    const sealed = await seal(keys, 'value', context);
    const bytes = Buffer.from(sealed.ciphertext, 'base64');
    bytes[0] = bytes[0]! ^ 1;
    await expect(open(keys, { ...sealed, ciphertext: bytes.toString('base64') }, context)).rejects.toThrow();
  });
});

describe('KeyManagement port: aws (KMS) after a change of key', () => {
  it('opens values sealed under the previous key with the key id stored beside them', async () => {
    const context = { organization: 'org_1', connection: 'conn_1' };
    const before = awsKeys(await createKmsKey());
    const sealed = await seal(before, 'sealed-before-the-change', context);
    const after = awsKeys(await createKmsKey()); // KMS_KEY_ID now names another key
    expect(await open(after, sealed, context)).toBe('sealed-before-the-change');
    // New values are sealed under the new key.
    const fresh = await seal(after, 'sealed-after', context);
    expect(fresh.keyId).not.toBe(sealed.keyId);
    expect(await open(after, fresh, context)).toBe('sealed-after');
  });
});
