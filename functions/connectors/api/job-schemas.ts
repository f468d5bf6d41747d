// Request schemas of the connector job routes.
import * as z from 'zod/mini';
import { idSchema } from '../../platform/ids';

/** A malformed id names no job: 404 (platform/http.ts), like another organization's job. */
export const jobIdPath = z.object({ id: idSchema('job', 'a job') });
