// GET /openapi.json: the document `npm run openapi` built from the route table, packed into the
// bundle (the Lambda carries no schema or generator), unpacked once per container, served from memory.
import { brotliDecompressSync } from 'node:zlib';
import type { OpenApiDocument } from '../../app/openapi';
import { OPENAPI_PACKED } from '../../app/openapi-packed';
import { publicRoute } from '../../../platform/http';
import { DOCS_ROUTE } from '../routes';

let document: OpenApiDocument | undefined;

export const create = publicRoute(DOCS_ROUTE.getOpenApi, async () => {
  document ??= JSON.parse(
    brotliDecompressSync(Buffer.from(OPENAPI_PACKED, 'base64')).toString('utf8'),
  ) as OpenApiDocument;
  // Public and identical for every caller: browsers and proxies may keep it for five minutes.
  return { status: 200, body: document, headers: { 'Cache-Control': 'public, max-age=300' } };
});
