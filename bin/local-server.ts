// `npm start`: the whole API on http://localhost:3000 (PORT), state under .data/ (DATA_DIR).
// With AWS_ENDPOINT_URL set (`npm run start:aws` sets it to the emulators it starts; or LocalStack) it
// is the emulated AWS runtime: it provisions the stack there (RESOURCE_PREFIX, default ces-local) and
// runs on the aws adapters, state under .data-aws/.
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createLocalDeps } from '../functions/compose/local';
import type { LocalQueue } from '../functions/compose/local';
import { LocalDataError } from '../functions/compose/local';
import { OffsetClock } from '../functions/platform/clock';
import { ensureDevCredentials } from '../functions/dev-runtime/identity/bootstrap';
import { createLocalServer } from '../functions/dev-runtime/server/server';
import { ApiGateway, apiGatewaySettings } from '../functions/dev-runtime/server/api-gateway';
import { devHooks } from '../functions/dev-runtime/hooks/clock-hooks';
import { devLedgerHooks } from '../functions/dev-runtime/hooks/ledger-hooks';
import { devConsoleIdentityProvider } from '../functions/dev-runtime/identity/dev-console-idp';
import { consoleSite } from '../functions/dev-runtime/server/console-site';
import { devTokenHooks } from '../functions/dev-runtime/hooks/token-hooks';
import { devScheduleHooks } from '../functions/dev-runtime/server/schedules';
import {
  attachLocalWorkers,
  resumeAbandonedJobs,
  stopLocalWorkers,
} from '../functions/dev-runtime/server/workers';
import { getNumberFromEnv } from '../functions/platform/config';
import type { Schedules } from '../functions/dev-runtime/server/schedules';
import { deferredSchedules, startSchedules } from '../functions/dev-runtime/server/schedules';
import type { Invoker } from '../functions/dev-runtime/server/lambda-runtime';
import { handlerLoader, inProcess } from '../functions/dev-runtime/server/lambda-runtime';
import type { EmulatedAws, RunningFunctions } from '../functions/dev-runtime/emulated-aws/runtime';
import { startEmulatedAws } from '../functions/dev-runtime/emulated-aws/runtime';
import { writeAwsEnv } from '../functions/dev-runtime/emulated-aws/aws-env';
import { awsCallRecorder } from '../functions/dev-runtime/emulated-aws/iam-recorder';
import { provisionSecrets } from '../functions/dev-runtime/emulated-aws/provision';
import { startSandboxProvider } from '../sandbox';
import { registerSandboxClients } from '../functions/dev-runtime/hooks/sandbox-setup';
import { STATE_KEY_ENV } from '../functions/connectors';
import {
  PROVIDER_IDS,
  checkClientSecret,
  clientSecretName,
  isRealProvider,
  providerEnv,
} from '../functions/connectors';
import { randomBytes } from 'node:crypto';

process.env.STAGE ??= 'local';
const port = Number(process.env.PORT ?? 3000);
const onAws = Boolean(process.env.AWS_ENDPOINT_URL);
// Its own default, so the two runtimes' credentials (different organizations) never overwrite each other.
const dataDir = resolve(process.env.DATA_DIR ?? (onAws ? '.data-aws' : '.data'));
mkdirSync(dataDir, { recursive: true });

// The data directory removed while the server runs (an `rm -rf .data` to start over): every write
// fails from then on, and a write outside a request ended in an unhandled rejection. One clear message
// and a stop instead, from a check every second or from the first write that finds the files gone.
const dataRemoved = () => {
  console.error(
    `Stopping: the data directory ${dataDir} was removed while the server ran. Start again (npm start) for a new one.`,
  );
  process.exit(1);
};
setInterval(() => {
  if (!existsSync(dataDir)) dataRemoved();
}, 1_000).unref();
process.on('unhandledRejection', (reason) => {
  const error = reason as NodeJS.ErrnoException | undefined;
  if (error?.code === 'ENOENT' && !existsSync(dataDir)) dataRemoved();
  console.error('unhandled rejection', reason);
  process.exit(1);
});

const clock = new OffsetClock();
const resourcePrefix = process.env.RESOURCE_PREFIX ?? 'ces-local';
const emulated = onAws ? await startOnEmulatedAws() : undefined;
const deps = emulated?.deps ?? openLocalData();
const load = handlerLoader(deps); // the local runtime's handlers (the emulated runtime runs bundles)
// On the emulated AWS runtime the functions start once the sandbox's and the server's URLs are known
// (their template's parameters): until then an invocation waits for them.
let functionsStarted: (functions: RunningFunctions) => void = () => undefined;
const functions = new Promise<RunningFunctions>((resolve) => (functionsStarted = resolve));
const invoke: Invoker = emulated ? async (fn, event) => (await functions).invoke(fn, event) : inProcess(load);
if (!emulated) {
  // What the last process was moving resumes now, before anything consumes.
  const resumed = await resumeAbandonedJobs(deps);
  if (resumed) console.log(`Resumed ${resumed} import run(s) or export(s) the last process left in flight`);
  const reclaimed = Object.values(deps.queues).reduce((n, q) => n + ((q as LocalQueue).reclaimed ?? 0), 0);
  if (reclaimed) console.log(`Handed back ${reclaimed} queue message(s) the last process held`);
  attachLocalWorkers(deps, load); // on the emulated runtime, its SQS event sources consume
}
// On the emulated AWS runtime, the template's schedule rules invoke as EventBridge does (asynchronously,
// the function's retries).
const schedules: Schedules = emulated
  ? deferredSchedules(
      functions.then((f) => startSchedules(f.invokeScheduled, clock, { asynchronous: true, rules: f.rules })),
    )
  : startSchedules(invoke, clock);

const server = createLocalServer(
  deps,
  [
    devHooks(clock, emulated?.advance),
    devConsoleIdentityProvider(dataDir),
    consoleSite({ dataDir, clock }),
    devLedgerHooks(deps),
    devTokenHooks(deps, schedules),
    devScheduleHooks(schedules),
  ],
  load,
  undefined,
  // The emulated AWS runtime answers as API Gateway does, with the template's methods, authorizers
  // (their cache TTL: none on dev, 60 s on prod) and integration timeouts, and the stage's throttling.
  emulated
    ? new ApiGateway(
        invoke,
        apiGatewaySettings(process.env.STAGE === 'prod' ? 'prod' : 'dev'),
        functions.then((f) => f.methods),
      )
    : undefined,
);
// A provider configured with the placeholder client secret would fail its first token exchange as a
// provider error; refused here, naming the provider and the variable to set.
for (const id of PROVIDER_IDS) {
  const secret = process.env[clientSecretName(id)];
  if (secret === undefined) continue;
  try {
    checkClientSecret(id, secret);
  } catch (error) {
    console.error(`Cannot start: ${(error as Error).message}`);
    process.exit(1);
  }
}
server.listen(port, process.env.HOST ?? '127.0.0.1', () => {
  void (async () => {
    const actualPort = (server.address() as AddressInfo).port;
    const baseUrl = `http://localhost:${actualPort}`;
    process.env.PUBLIC_BASE_URL ??= baseUrl;
    // The sandbox OAuth provider on its own origin; providers not configured otherwise point at it.
    const sandbox = await startSandboxProvider({
      port: Number(process.env.SANDBOX_PORT ?? (port === 0 ? 0 : port + 1)),
      host: process.env.HOST ?? '127.0.0.1',
      clock,
      exposeIssued: process.env.LOCAL_TEST_HOOKS === '1',
      // Tests make the sandbox refuse uploads past a small size (a provider refusing one document).
      ...(process.env.SANDBOX_MAX_UPLOAD_BYTES
        ? { maxUploadBytes: Number(process.env.SANDBOX_MAX_UPLOAD_BYTES) }
        : {}),
    });
    // A real provider is configured by its client id (its endpoints default to production's); the
    // sandbox's by its endpoints. Every provider not configured is pointed at the sandbox (or its fake).
    const unconfigured = PROVIDER_IDS.filter(
      (id) => !process.env[providerEnv(id, isRealProvider(id) ? 'CLIENT_ID' : 'AUTHORIZE_URL')],
    );
    Object.assign(process.env, registerSandboxClients(sandbox, process.env.PUBLIC_BASE_URL, unconfigured));
    process.env[STATE_KEY_ENV] ??= randomBytes(32).toString('base64url');
    // On the emulated AWS runtime the secret settings live in Secrets Manager, as deployed: the
    // functions read them at run time by ARN (NAME_ARN), never from the environment.
    if (emulated) functionsStarted(await startFunctions(emulated, await moveSecretsToSecretsManager()));
    const { credentials, created, path, replaced } = await ensureDevCredentials(deps, dataDir, baseUrl);
    if (replaced) console.error(replaced);
    console.log(
      `Connector and event service listening on ${baseUrl} (${onAws ? 'aws adapters at ' + process.env.AWS_ENDPOINT_URL : 'local adapters, data in ' + dataDir})`,
    );
    if (emulated) console.log((await functions).summary.join('\n'));
    if (created && process.stdout.isTTY) {
      console.log(`Development API key (shown once; also in ${path}):\n  ${credentials.apiKey}`);
    } else {
      console.log(`Credentials (API key, system key, organization): ${path}`);
    }
    const sandboxFor = unconfigured.join(', ') || 'no provider: all are configured';
    console.log(`Sandbox OAuth provider on ${sandbox.url} (for ${sandboxFor})`);
    console.log(
      `Try: curl -H "Authorization: Bearer $(node -p "require('${path}').apiKey")" ${baseUrl}/connectors/v1/providers`,
    );
  })().catch((error: unknown) => {
    if (error instanceof LocalDataError) console.error(`Cannot start: ${error.message}`);
    else console.error('startup failed', error);
    process.exit(1);
  });
});

/**
 * The local adapters over the data directory: a damaged journal is reported by file (and kept aside);
 * a missing or wrong master key, or another file that cannot be used, stops the start with its name.
 */
function openLocalData() {
  try {
    const local = createLocalDeps({ dataDir, clock });
    for (const report of local.startupReport) console.error(`Local data damaged: ${report}`);
    if (local.blobTemporariesRemoved)
      console.log(
        `Removed ${local.blobTemporariesRemoved} temporary vault file(s) an interrupted write left`,
      );
    return local;
  } catch (error) {
    if (!(error instanceof LocalDataError)) throw error;
    console.error(`Cannot start: ${error.message}`);
    process.exit(1);
  }
}

/** The client secrets and the state key, out of the environment into Secrets Manager (by ARN). */
async function moveSecretsToSecretsManager(): Promise<Record<string, string>> {
  const names = Object.keys(process.env).filter((n) => n === STATE_KEY_ENV || n.endsWith('_CLIENT_SECRET'));
  const values = Object.fromEntries(names.map((n) => [n, process.env[n]!]));
  const arns = await provisionSecrets(resourcePrefix, values);
  Object.assign(process.env, arns);
  for (const name of names) delete process.env[name];
  return arns;
}

/**
 * The synthesized application's functions on the emulated runtime: the template of a deployment whose
 * endpoints are this server's, its sandbox's and its console identity provider's (the parameters,
 * given their values here), from the cache when the sources did not change (lib/emulated-app.ts).
 */
async function startFunctions(
  runtime: EmulatedAws,
  secrets: Record<string, string>,
): Promise<RunningFunctions> {
  const stage = process.env.STAGE === 'prod' ? 'prod' : 'dev';
  const { emulatedApp, localDeploymentContext, localParameters } = await import('../lib/emulated-app');
  const parameters = localParameters(process.env, process.env.PUBLIC_BASE_URL!);
  const app = await emulatedApp({
    root: resolve(import.meta.dirname, '..'),
    stage,
    context: localDeploymentContext(parameters),
    log: (line) => console.log(line),
  });
  return runtime.startFunctions({
    app,
    parameters,
    secrets,
    ...(process.env.RECORD_AWS_CALLS === '1' ? { onCall: awsCallRecorder(dataDir, resourcePrefix) } : {}),
  });
}

/** Provisions the template's resources at the endpoint and starts the event sources and the task runner. */
async function startOnEmulatedAws() {
  const prefix = resourcePrefix;
  try {
    const { emulatedResources } = await import('../lib/emulated-app');
    const runtime = await startEmulatedAws({
      prefix,
      resources: await emulatedResources({
        root: resolve(import.meta.dirname, '..'),
        stage: process.env.STAGE === 'prod' ? 'prod' : 'dev',
        log: (line) => console.log(line),
      }),
      clock,
      // With the development clock, SQS delays follow it (functions/dev-runtime/emulated-aws/runtime.ts).
      ...(process.env.LOCAL_TEST_HOOKS === '1' ? { maxDelaySeconds: 1 } : {}),
    });
    writeAwsEnv(dataDir, runtime.provisioned.environment);
    return runtime;
  } catch (error) {
    console.error(
      `Could not provision the stack (prefix ${prefix}) at ${process.env.AWS_ENDPOINT_URL}: ${error instanceof Error ? error.message : String(error)}\n` +
        'Is the emulator running? `npm run start:aws` starts moto server and DynamoDB Local itself.',
    );
    process.exit(1);
  }
}

/**
 * SIGTERM/SIGINT: no new requests or schedule ticks; the local queues finish what they hold within
 * LOCAL_SHUTDOWN_GRACE_MS (5 s) and hand back the rest, then the process exits, whatever is still
 * running (a request, a handler past the grace): the stop is bounded. A second signal exits at once.
 */
let stopping = false;
const stop = () => {
  if (stopping) process.exit(1);
  stopping = true;
  const graceMs = getNumberFromEnv('LOCAL_SHUTDOWN_GRACE_MS', { default: 5_000 });
  setTimeout(() => process.exit(0), graceMs + 2_000); // the bound, if anything below hangs
  schedules.stop();
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  void (async () => {
    if (!emulated) {
      const { settled, handedBack } = await stopLocalWorkers(deps, graceMs);
      console.log(`Stopping: ${settled} message(s) finished, ${handedBack} handed back for the next start`);
    } else {
      await closed; // the emulated runtime's queues are the emulator's: requests in flight finish
      await (await functions).stop();
    }
    process.exit(0);
  })();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
