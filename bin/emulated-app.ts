// `npm run emulated-app`: synthesizes and bundles the application the emulated AWS runtime runs
// (lib/emulated-app.ts), and the resources it provisions, for a runtime with the sandbox provider
// serving every provider not configured otherwise, as `npm run start:aws` starts one; a no-op when the
// cache already has them.
// `npm test` runs it for both stages (`bin/emulated-app.ts dev prod`) before the e2e-aws tier so that
// no server of the tier pays for synthesis and bundling (about 20 s a stage: the SDK is bundled).
import { resolve } from 'node:path';
import { emulatedApp, emulatedResources, localDeploymentContext, localParameters } from '../lib/emulated-app';
import { startSandboxProvider } from '../sandbox';
import { registerSandboxClients } from '../functions/dev-runtime/hooks/sandbox-setup';
import { PROVIDER_IDS, isRealProvider, providerEnv } from '../functions/connectors';
import { systemClock } from '../functions/platform/clock';

const stageOf = (name: string | undefined): 'dev' | 'prod' => (name === 'prod' ? 'prod' : 'dev');
const stages = process.argv.length > 2 ? process.argv.slice(2).map(stageOf) : [stageOf(process.env.STAGE)];
const sandbox = await startSandboxProvider({ port: 0, host: '127.0.0.1', clock: systemClock });
try {
  // The same choice as bin/local-server.ts: every provider not configured otherwise is the sandbox's.
  const unconfigured = PROVIDER_IDS.filter(
    (id) => !process.env[providerEnv(id, isRealProvider(id) ? 'CLIENT_ID' : 'AUTHORIZE_URL')],
  );
  const publicBaseUrl = 'http://localhost:3000';
  const env = { ...process.env, ...registerSandboxClients(sandbox, publicBaseUrl, unconfigured) };
  for (const stage of new Set(stages)) {
    const root = resolve(import.meta.dirname, '..');
    const log = (line: string) => console.log(`${stage}: ${line}`);
    await emulatedResources({ root, stage, log });
    await emulatedApp({
      root,
      stage,
      context: localDeploymentContext(localParameters(env, publicBaseUrl)),
      log,
    });
  }
} finally {
  sandbox.close();
}
