// Request schemas of the application routes (functions/directory/routes.ts).
import * as z from 'zod/mini';
import { idSchema } from '../../platform/ids';

/** A malformed id names nothing: 404 (platform/http.ts), like an unknown application or key. */
export const applicationKeyPath = z.object({
  id: idSchema('app', 'an application'),
  keyId: idSchema('key', 'an API key'),
});
