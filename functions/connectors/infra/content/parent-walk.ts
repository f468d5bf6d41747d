// Whether an item is under a folder, for the providers whose change feeds are a whole drive's (Google
// Drive's changes.list, Graph's root delta): the item's parents walked up to the folder, or to the top.
import { ProviderApiError } from './http';

/** Deeper than any real tree: a walk that goes on longer is in a cycle, and the item counts as outside. */
export const MAX_PARENT_DEPTH = 64;

/**
 * A test of "is under `container`" taking an item's first parent. Each folder's parent is read once
 * (`readParent`; `known` may hold those already seen, e.g. the folders of the same page); a folder the
 * provider no longer has (404) ends the walk outside.
 */
export function parentWalk(
  container: string,
  readParent: (folder: string) => Promise<string | undefined>,
  known = new Map<string, string | undefined>(),
): (parent: string | undefined) => Promise<boolean> {
  return async (parent) => {
    let at = parent;
    for (let depth = 0; at !== undefined && depth < MAX_PARENT_DEPTH; depth++) {
      if (at === container) return true;
      if (!known.has(at)) {
        const folder = at;
        known.set(
          folder,
          await readParent(folder).catch((error: unknown) => {
            if (error instanceof ProviderApiError && error.status === 404) return undefined;
            throw error;
          }),
        );
      }
      at = known.get(at);
    }
    return false;
  };
}
