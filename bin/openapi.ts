// `npm run openapi`: writes docs/openapi.json from the route table (a unit test keeps it up to date).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { buildOpenApi } from '../functions/docs';
import { ROUTES } from '../functions/routes';

const file = join(import.meta.dirname, '..', 'docs', 'openapi.json');
// Formatted as `npm run format` would, so format:check and the generator agree.
const options = await prettier.resolveConfig(file);
writeFileSync(
  file,
  await prettier.format(JSON.stringify(buildOpenApi(ROUTES)), { ...options, filepath: file }),
);
console.log(`wrote ${file}`);
