// The parent walk Google Drive and OneDrive share (infra/content/parent-walk.ts): an item is under the
// folder when its parents lead there; each folder's parent is read once, a cycle or a folder the
// provider no longer has ends the walk outside.
import { ProviderApiError } from '../../functions/connectors/infra/content/http';
import { parentWalk } from '../../functions/connectors/infra/content/parent-walk';

function tree(parents: Record<string, string | undefined>) {
  const reads: string[] = [];
  const readParent = (folder: string) => {
    reads.push(folder);
    if (!(folder in parents)) return Promise.reject(new ProviderApiError('get file', 404));
    return Promise.resolve(parents[folder]);
  };
  return { reads, readParent };
}

describe('the parent walk', () => {
  it('finds an item under the folder, reading each folder once across items', async () => {
    const { reads, readParent } = tree({ a: 'linked', b: 'a', linked: 'top', top: undefined, other: 'top' });
    const within = parentWalk('linked', readParent);
    expect(await within('b')).toBe(true);
    expect(await within('b')).toBe(true);
    expect(await within('a')).toBe(true);
    expect(await within('other')).toBe(false);
    expect(await within(undefined)).toBe(false);
    expect(reads).toEqual(['b', 'a', 'other', 'top']);
  });

  it('takes the folders it is given as known, without reading them', async () => {
    const { reads, readParent } = tree({});
    const within = parentWalk('linked', readParent, new Map([['x', 'linked']]));
    expect(await within('x')).toBe(true);
    expect(reads).toEqual([]);
  });

  it('ends outside at a folder that is gone (404) and in a cycle; other failures are thrown', async () => {
    const { readParent } = tree({ c1: 'c2', c2: 'c1' });
    const within = parentWalk('linked', readParent);
    expect(await within('gone')).toBe(false);
    expect(await within('c1')).toBe(false);
    const failing = parentWalk('linked', () => Promise.reject(new ProviderApiError('get file', 500)));
    await expect(failing('a')).rejects.toMatchObject({ status: 500 });
  });
});
