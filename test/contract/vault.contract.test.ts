// The VaultDocuments port's contract on both adapters: in memory (local) and the DynamoDB stand-in table.
import { MemoryVault } from '../../functions/adapters/local/memory-vault';
import { VaultTable } from '../../functions/adapters/aws/vault-table';
import type { VaultDocuments } from '../../functions/platform/ports';
import { createTables, documentClient } from '../support/emulators';

const adapters: [string, () => Promise<VaultDocuments>][] = [
  ['local (memory)', async () => new MemoryVault()],
  [
    'aws (DynamoDB)',
    async () => new VaultTable((await createTables('vault-contract')).vault, documentClient()),
  ],
];

describe.each(adapters)('VaultDocuments port: %s', (_name, make) => {
  let vault: VaultDocuments;
  beforeAll(async () => {
    vault = await make();
  });

  it('returns a document as it was put, and undefined for one never put', async () => {
    await vault.put({ vaultId: 'vlt_a', objectId: 'obj_1', name: 'brief.pdf', size: 12 });
    expect(await vault.get('vlt_a', 'obj_1')).toEqual({
      vaultId: 'vlt_a',
      objectId: 'obj_1',
      name: 'brief.pdf',
      size: 12,
    });
    expect(await vault.get('vlt_a', 'obj_missing')).toBeUndefined();
  });

  it('deletes a document, and deleting it again (or one that never existed) succeeds', async () => {
    await vault.put({ vaultId: 'vlt_b', objectId: 'obj_1' });
    await vault.delete('vlt_b', 'obj_1');
    expect(await vault.get('vlt_b', 'obj_1')).toBeUndefined();
    await expect(vault.delete('vlt_b', 'obj_1')).resolves.toBeUndefined();
    await expect(vault.delete('vlt_b', 'obj_never')).resolves.toBeUndefined();
  });

  it('keeps the same object id in two vaults apart', async () => {
    await vault.put({ vaultId: 'vlt_c', objectId: 'obj_same', name: 'c' });
    await vault.put({ vaultId: 'vlt_d', objectId: 'obj_same', name: 'd' });
    await vault.delete('vlt_c', 'obj_same');
    expect(await vault.get('vlt_c', 'obj_same')).toBeUndefined();
    expect(await vault.get('vlt_d', 'obj_same')).toMatchObject({ name: 'd' });
  });
});
