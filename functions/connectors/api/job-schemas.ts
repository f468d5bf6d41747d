// Request schemas of the connector job routes.
import * as z from 'zod/mini';
import { lazy } from '../../platform/lazy';
import { idSchema } from '../../platform/ids';

/** A malformed id names no job: 404 (platform/http.ts), like another organization's job. */
export const jobIdPath = lazy(() => z.object({ id: idSchema('job', 'a job') }));
