// `npm start`: the whole API on http://localhost:3000 (PORT), state under .data/ (DATA_DIR).
// With AWS_ENDPOINT_URL set (emulators, LocalStack) it runs on the aws adapters instead.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createAwsDeps } from '../functions/adapters/aws';
import { createLocalDeps } from '../functions/adapters/local';
import { OffsetClock } from '../functions/platform/clock';
import { provideDeps } from '../functions/platform/deps';
import { ensureDevCredentials } from '../functions/local/bootstrap';
import { createLocalServer } from '../functions/local/server';
import { devHooks } from '../functions/local/dev-hooks';

process.env.STAGE ??= 'local';
const port = Number(process.env.PORT ?? 3000);
const dataDir = resolve(process.env.DATA_DIR ?? '.data');
mkdirSync(dataDir, { recursive: true });

const clock = new OffsetClock();
const onAws = Boolean(process.env.AWS_ENDPOINT_URL);
const deps = onAws ? { ...createAwsDeps(), clock } : createLocalDeps({ dataDir, clock });
provideDeps(deps);

const server = createLocalServer([devHooks(clock)]);
server.listen(port, process.env.HOST ?? '127.0.0.1', () => {
  void (async () => {
    const actualPort = (server.address() as AddressInfo).port;
    const baseUrl = `http://localhost:${actualPort}`;
    process.env.PUBLIC_BASE_URL ??= baseUrl;
    const { credentials, created, path } = await ensureDevCredentials(deps, dataDir, baseUrl);
    console.log(`Connector and event service listening on ${baseUrl} (${onAws ? 'aws adapters at ' + process.env.AWS_ENDPOINT_URL : 'local adapters, data in ' + dataDir})`);
    if (created && process.stdout.isTTY) {
      console.log(`Development API key (shown once; also in ${path}):\n  ${credentials.apiKey}`);
    } else {
      console.log(`Credentials (API key, system key, organization): ${path}`);
    }
    console.log(`Try: curl -H "Authorization: Bearer $(node -p "require('${path}').apiKey")" ${baseUrl}/connectors/v1/providers`);
  })().catch((error: unknown) => {
    console.error('startup failed', error);
    process.exit(1);
  });
});

const stop = () => server.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
