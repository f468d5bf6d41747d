// The application the emulated AWS runtime runs: the stack synthesized in memory for a
// deployment whose endpoints are the local ones (the sandbox provider, the development console
// identity provider, the local server's own URL), read back from the template (functions with their
// environment, memory and timeout; the SQS event source mappings; the schedule rules), and every
// function's bundle built as `cdk synth` builds it. Synthesis and bundling take ~20 s, so the result is
// kept under .build/emulated-app/<digest>/, the digest naming everything it is made from (the sources,
// the lock file, the stage and the context): a start whose sources did not change reads it back. The
// bundles depend on the sources only and are kept once per source digest, shared by stages and contexts.
//
// The local endpoints differ from start to start (free ports), so the context holds placeholders
// (parameterPlaceholder) where they go, and the runtime gives each function their values when it starts
// it, as CloudFormation gives a parameter's value at deploy time: the template stays the same.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { EmulatedApp, ResourceSpec } from '../functions/dev-runtime/emulated-aws/application';
import {
  apiMethodSpecs,
  bundleFileOf,
  bundleFunctions,
  eventSourceSpecs,
  functionSpecs,
  parameterPlaceholder,
  permissionSpecs,
  resourceSpecs,
  restApiOf,
  roleArnsOf,
  scheduleSpecs,
} from './emulated-functions';
import { PROVIDER_IDS, PROVIDER_SETTINGS, providerEnv } from '../functions/connectors/domain/providers';
import {
  DEV_CONSOLE_AUDIENCE,
  DEV_CONSOLE_ISSUER,
  DEV_CONSOLE_JWKS_PATH,
} from '../functions/platform/console-sessions';

/** The settings a provider takes from context, by their environment suffix (PROVIDER_<ID>_<SUFFIX>). */
const CONTEXT_KEY_OF: Record<string, string> = Object.fromEntries(
  Object.entries(PROVIDER_SETTINGS)
    .filter(([key]) => key !== 'clientSecret')
    .map(([key, suffix]) => [suffix, key]),
);
/** Never context: the client secret lives in Secrets Manager (the runtime puts it there). */
const NOT_CONTEXT = new Set(['CLIENT_SECRET', 'CLIENT_SECRET_ARN']);

/** The console identity provider's and the public URL's parameters. */
const CONSOLE_PARAMETERS = {
  consoleIssuer: 'CONSOLE_ISSUER',
  consoleAudience: 'CONSOLE_AUDIENCE',
  consoleJwksUrl: 'CONSOLE_JWKS_URL',
};

/**
 * The CDK context of the local deployment: each provider setting set in `env`
 * (PROVIDER_<ID>_<SETTING>, what the sandbox registered or a person configured) as a parameter of that
 * name, the console identity provider's three settings and the public base URL as parameters too.
 * What the parameters are given at run time is the runtime's: `env` itself.
 */
export function localDeploymentContext(env: Record<string, string | undefined>): Record<string, unknown> {
  const providers: Record<string, Record<string, unknown>> = {};
  for (const id of PROVIDER_IDS) {
    const prefix = providerEnv(id, '');
    const provider: Record<string, unknown> = {};
    const settings: Record<string, string> = {};
    for (const name of Object.keys(env).sort()) {
      if (!name.startsWith(prefix) || env[name] === undefined) continue;
      const suffix = name.slice(prefix.length);
      if (NOT_CONTEXT.has(suffix)) continue;
      // A param value's own client (PROVIDER_<ID>_<VALUE SUFFIX>_CLIENT_ID); its secret is a secret setting.
      const own = /^([A-Z][A-Z0-9]{0,15})_CLIENT_(ID|SECRET)$/.exec(suffix);
      if (own) {
        if (own[2] === 'ID')
          ((provider.clients ??= {}) as Record<string, unknown>)[own[1]!] = {
            clientId: parameterPlaceholder(name),
          };
        continue;
      }
      if (suffix === 'PROFILE') provider.profile = JSON.parse(env[name]!) as unknown;
      else if (suffix === 'ISSUER') provider.issuer = parameterPlaceholder(name);
      else if (suffix === 'ORIGIN') provider.origin = parameterPlaceholder(name);
      // A list in the context (the template's value), not a parameter: it is the same at every start.
      else if (suffix === 'ALLOWED_HOSTS') provider.allowedHosts = env[name]!.split(',').map((h) => h.trim());
      else if (CONTEXT_KEY_OF[suffix]) provider[CONTEXT_KEY_OF[suffix]!] = parameterPlaceholder(name);
      else settings[suffix] = parameterPlaceholder(name);
    }
    if (Object.keys(settings).length) provider.settings = settings;
    if (provider.clientId) providers[id] = provider;
  }
  return {
    connectors: JSON.stringify({ providers }),
    publicBaseUrl: parameterPlaceholder('PUBLIC_BASE_URL'),
    ...Object.fromEntries(
      Object.entries(CONSOLE_PARAMETERS).map(([key, name]) => [key, parameterPlaceholder(name)]),
    ),
  };
}

/**
 * The parameters' values on a runtime serving at `publicBaseUrl`: its environment (the providers'
 * settings the sandbox registered or a person set), the development console identity provider's.
 */
export function localParameters(
  env: Record<string, string | undefined>,
  publicBaseUrl: string,
): Record<string, string | undefined> {
  return {
    ...env,
    PUBLIC_BASE_URL: publicBaseUrl,
    CONSOLE_ISSUER: DEV_CONSOLE_ISSUER,
    CONSOLE_AUDIENCE: DEV_CONSOLE_AUDIENCE,
    CONSOLE_JWKS_URL: `${publicBaseUrl}${DEV_CONSOLE_JWKS_PATH}`,
  };
}

/** A digest of the sources (lib/, functions/, the lock file): what the bundles are made from. */
function sourceDigest(root: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|js|mjs|cjs|json)$/.test(entry.name))
        hash.update(path.slice(root.length)).update(readFileSync(path));
    }
  };
  walk(join(root, 'lib'));
  walk(join(root, 'functions'));
  hash.update(readFileSync(join(root, 'package-lock.json')));
  return hash.digest('hex').slice(0, 16);
}

/** A digest of everything the application is made from: the sources, the stage and the context. */
const appDigest = (sources: string, stage: string, context: Record<string, unknown>): string =>
  createHash('sha256').update(JSON.stringify({ sources, stage, context })).digest('hex').slice(0, 16);

/**
 * The bundles, under `.build/emulated-app/bundles/<source digest>/`: they depend on the sources only,
 * so the stages and contexts built from the same sources share one build (half of `npm test`'s
 * `emulated-app dev prod`, most of whose time is bundling). Built beside, then moved in whole.
 */
async function ensureBundles(cacheRoot: string, sources: string, handlerModules: string[]): Promise<string> {
  const dir = join(cacheRoot, BUNDLES, sources);
  // Complete when every module asked for has its bundle: a caller's modules (the bundle-budget test
  // lists the stack's own) may name one the build kept did not.
  if (handlerModules.every((module) => existsSync(bundleFileOf(dir, module)))) return dir;
  const building = `${dir}.${process.pid}.tmp`;
  rmSync(building, { recursive: true, force: true });
  await bundleFunctions(handlerModules, building);
  rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(building, dir);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another start got there first: the same content
  }
  pruneAppCache(join(cacheRoot, BUNDLES));
  return dir;
}

const BUNDLES = 'bundles';

/**
 * The functions' bundles for the sources as they are now, as the emulated runtime runs them (maps
 * beside, linked): the ones the emulated application's build kept when these sources' are there, else
 * built now and kept. The bundle-budget test measures these, so `npm test` bundles once, not twice.
 */
export function sourceBundles(root: string, handlerModules: string[]): Promise<string> {
  return ensureBundles(join(root, '.build', 'emulated-app'), sourceDigest(root), handlerModules);
}

const KEEP = 4; // applications kept: a few branches or contexts side by side

/**
 * The application for this stage and context: read back from the cache when its digest is there,
 * else synthesized and bundled (and cached). `log` says which.
 */
export async function emulatedApp(options: {
  root: string;
  stage: 'dev' | 'prod';
  context: Record<string, unknown>;
  log?: (line: string) => void;
}): Promise<EmulatedApp> {
  const cacheRoot = join(options.root, '.build', 'emulated-app');
  const sources = sourceDigest(options.root);
  const digest = appDigest(sources, options.stage, options.context);
  const dir = join(cacheRoot, digest);
  const file = join(dir, 'app.json');
  if (existsSync(file)) {
    options.log?.(`Synthesized application ${digest} read from ${dir}`);
    const app = JSON.parse(readFileSync(file, 'utf8')) as Omit<EmulatedApp, 'bundleDir'>;
    const modules = app.functions.map((f) => f.handlerModule);
    return { ...app, bundleDir: await ensureBundles(cacheRoot, sources, modules) };
  }
  const started = Date.now();
  // Imported here only: `cdk synth` in memory is needed on a cache miss only.
  const { synthStack } = await import('./synthesize');
  const { stack, template } = synthStack({ stage: options.stage, context: options.context });
  const app = {
    stage: options.stage,
    functions: functionSpecs(stack, template),
    eventSources: eventSourceSpecs(stack, template),
    schedules: scheduleSpecs(stack, template),
    api: apiMethodSpecs(stack, template),
    restApi: restApiOf(stack, template),
    permissions: permissionSpecs(stack, template),
    roles: roleArnsOf(stack, template),
  };
  const bundleDir = await ensureBundles(
    cacheRoot,
    sources,
    app.functions.map((f) => f.handlerModule),
  );
  // Written beside, then moved in whole: two runtimes starting at once never read half an application.
  const building = `${dir}.${process.pid}.tmp`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  writeFileSync(join(building, 'app.json'), JSON.stringify(app));
  try {
    renameSync(building, dir);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another start got there first: the same content
  }
  pruneAppCache(cacheRoot);
  options.log?.(
    `Synthesized the application (${digest}), and bundled it unless these sources' bundles were built, in ${((Date.now() - started) / 1000).toFixed(1)} s (bundles: ${bundleDir})`,
  );
  return { ...app, bundleDir };
}

const RESOURCES = 'resources';

/**
 * The resources the stack's template declares for this stage (resourceSpecs), which the emulated
 * runtime provisions before it knows its functions' context: they do not depend on the deployment's
 * context (test/cdk/emulated-app.test.ts holds it so), so they are synthesized without one and kept
 * under `.build/emulated-app/resources/<source digest>-<stage>.json`.
 */
export async function emulatedResources(options: {
  root: string;
  stage: 'dev' | 'prod';
  log?: (line: string) => void;
}): Promise<ResourceSpec[]> {
  const dir = join(options.root, '.build', 'emulated-app', RESOURCES);
  const file = join(dir, `${sourceDigest(options.root)}-${options.stage}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as ResourceSpec[];
  const started = Date.now();
  const { synthStack } = await import('./synthesize');
  const { stack, template } = synthStack({ stage: options.stage });
  const resources = resourceSpecs(stack, template);
  mkdirSync(dir, { recursive: true });
  const building = `${file}.${process.pid}.tmp`;
  writeFileSync(building, JSON.stringify(resources));
  renameSync(building, file);
  // The newest few only: a file per source digest and stage.
  const kept = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of kept.slice(KEEP * 2)) rmSync(join(dir, old.name), { force: true });
  options.log?.(
    `Synthesized the ${options.stage} template's resources in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return resources;
}

/**
 * Keeps the most recent applications only, and removes what builds that died part-way left
 * (`<digest>.<pid>.tmp` whose process is gone: a killed `npm start` or test run); a build under way in
 * a live process is left alone.
 */
export function pruneAppCache(cacheRoot: string): void {
  const names = readdirSync(cacheRoot);
  for (const name of names) {
    const pid = /\.(\d+)\.tmp$/.exec(name)?.[1];
    if (pid && !processAlive(Number(pid))) rmSync(join(cacheRoot, name), { recursive: true, force: true });
  }
  const entries = names
    // The bundles and the resources are pruned in their own directories.
    .filter((name) => !name.endsWith('.tmp') && name !== BUNDLES && name !== RESOURCES)
    .map((name) => ({ name, at: statSync(join(cacheRoot, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of entries.slice(KEEP)) rmSync(join(cacheRoot, old.name), { recursive: true, force: true });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}
