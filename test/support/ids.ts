// Fresh, well-formed identifiers for tests.
import { newId } from '../../functions/platform/ids';

export const ids = { org: () => newId('org') };
