// Request schemas of the application routes (functions/directory/routes.ts).
import * as z from 'zod';

export const applicationKeyPath = z.object({
  id: z.string().min(1).max(128),
  keyId: z.string().min(1).max(128),
});
