// The composition root: what every handler reaches its ports through. Lambdas get the aws adapters
// lazily; the local server and tests provide their own set before the first request.
import { createAwsDeps } from '../adapters/aws';
import type { Clock } from './clock';
import type { KeyManagement, Queues, Tables, VaultDocuments, Workflows } from './ports';

export interface Deps {
  tables: Tables;
  keys: KeyManagement;
  queues: Queues;
  clock: Clock;
  /**
   * Optional only so hand-built test compositions that never purge need not provide them; both adapter
   * sets (aws, local) always do. Purge code checks for them where it needs them.
   */
  workflows?: Workflows;
  vault?: VaultDocuments;
}

let current: Deps | undefined;

export function deps(): Deps {
  current ??= createAwsDeps();
  return current;
}

export function provideDeps(next: Deps): void {
  current = next;
}
