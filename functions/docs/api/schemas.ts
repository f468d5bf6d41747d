// The documentation route's answer, described as loosely as a document about documents needs to be.
import * as z from 'zod/mini';

export const openApiDocumentView = z
  .object({
    openapi: z.literal('3.1.0'),
    info: z.object({ title: z.string(), version: z.string(), description: z.string() }),
    servers: z.array(z.record(z.string(), z.unknown())),
    tags: z.array(z.object({ name: z.string(), description: z.string() })),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
    components: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .clone()
  .register(z.globalRegistry, { id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document' });
