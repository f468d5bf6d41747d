// Request schemas of the connector job routes.
import * as z from 'zod';

/** Any string: a malformed id reads as not found (404), like another organization's job. */
export const jobIdPath = z.object({ id: z.string().max(64) });
