// Starts the real local server (`npm start`'s entry) in a child process on a free port with a fresh
// data directory, captures everything it logs, and stops it. e2e tests talk to it over HTTP.
//
// One set of e2e tests, two runtimes: E2E_RUNTIME=local (the `e2e` jest project) runs the server on
// the in-process adapters; E2E_RUNTIME=aws (the `e2e-aws` project, test/support/e2e-aws.ts) runs the
// same entry as the emulated AWS runtime against the emulators `npm test` starts, each server with
// resources of its own (RESOURCE_PREFIX), its queues consumed by the SQS event-source runner.
import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DevCredentials } from '../../functions/dev-runtime/identity/bootstrap';
import { AWS_ENV_FILE } from '../../functions/dev-runtime/emulated-aws/aws-env';

export type Runtime = 'local' | 'aws';

/** The runtime this jest project tests. */
export const RUNTIME: Runtime = process.env.E2E_RUNTIME === 'aws' ? 'aws' : 'local';

/**
 * A describe block that runs on the local runtime only; on the emulated AWS runtime it is skipped and
 * its name says why, so the report shows exactly what is not covered there.
 */
export function describeLocalOnly(reason: string, name: string, fn: () => void): void {
  if (RUNTIME === 'local') describe(name, fn);
  else describe.skip(`${name} [local runtime only: ${reason}]`, fn);
}

/** The variables that select the runtime in the server's (and the admin CLI's) environment. */
function runtimeEnv(dataDir: string): Record<string, string> {
  if (RUNTIME === 'local') return { AWS_ENDPOINT_URL: '' }; // even when the emulators are up for other tiers
  if (!process.env.AWS_ENDPOINT_URL) {
    throw new Error(
      'E2E_RUNTIME=aws needs the emulators: run `npm test` or ' +
        '`bash scripts/with-emulators.sh node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects e2e-aws`, ' +
        'or set AWS_ENDPOINT_URL (LocalStack).',
    );
  }
  // Every SDK call a function makes is recorded and checked against its role when the server stops.
  return {
    RECORD_AWS_CALLS: '1',
    RESOURCE_PREFIX: `e2e-${dataDir.slice(-6).toLowerCase()}-${randomBytes(3).toString('hex')}`,
  };
}

/** The emulated runtime's resources, as it wrote them (`export NAME='value'` lines). */
function awsEnv(dataDir: string): Record<string, string> {
  if (RUNTIME === 'local') return { AWS_ENDPOINT_URL: '' };
  const text = readFileSync(join(dataDir, AWS_ENV_FILE), 'utf8');
  return Object.fromEntries(
    [...text.matchAll(/^export ([A-Z0-9_]+)='(.*)'$/gm)].map((m) => [m[1]!, m[2]!.replace(/'\\''/g, "'")]),
  );
}

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  credentials: DevCredentials;
  /** Everything the server wrote to stdout and stderr so far. */
  logs(): string;
  /** Moves the server's clock forward (LOCAL_TEST_HOOKS). */
  advanceClock(ms: number): Promise<void>;
  /** The server's clock (epoch ms), which advanceClock moves. */
  clockNow(): Promise<number>;
  /** Runs the admin CLI against this server's data directory; returns its parsed JSON output. */
  admin(...args: string[]): unknown;
  /** A new API key (through the admin CLI) in this server's organization, or in `organizationId`. */
  createKey(permissions?: string, organizationId?: string): { keyId: string; apiKey: string };
  /** A new organization with a key holding every permission: the "other tenant" of isolation tests. */
  otherOrganization(name?: string): { organizationId: string; apiKey: string };
  stop(): Promise<void>;
  /** Ends the process with `signal` (SIGKILL: a crash) and resolves once it has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

/** `dataDir`: start on an existing data directory (a restart); a fresh one by default. */
export async function startLocalServer(
  env: Record<string, string> = {},
  dataDir: string = mkdtempSync(join(tmpdir(), 'ces-e2e-')),
): Promise<RunningServer> {
  let output = '';
  // One process, node with tsx's loader: the tsx command runs the server in a child of its own, which a
  // SIGKILL of the tsx process leaves running (an orphan on the data directory and the test's pipes).
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bin', 'local-server.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: '0',
        DATA_DIR: dataDir,
        LOCAL_TEST_HOOKS: '1',
        ...runtimeEnv(dataDir),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));

  const baseUrl = await new Promise<string>((resolve, reject) => {
    // The emulated runtime provisions its resources first.
    const deadline = setTimeout(
      () => reject(new Error(`local server did not start:\n${output}`)),
      RUNTIME === 'aws' ? 90_000 : 30_000,
    );
    const poll = setInterval(() => {
      const match = /listening on (http:\/\/localhost:\d+)/.exec(output);
      if (match && /Credentials|Development API key/.test(output)) {
        clearTimeout(deadline);
        clearInterval(poll);
        resolve(match[1]!);
      }
    }, 50);
    child.once('exit', (code) => {
      clearTimeout(deadline);
      clearInterval(poll);
      reject(new Error(`local server exited with ${code}:\n${output}`));
    });
  });
  const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as DevCredentials;

  function admin(...args: string[]): unknown {
    const target = RUNTIME === 'aws' ? ['--target', 'aws'] : [];
    const run = spawnSync(TSX, [join(ROOT, 'bin', 'admin.ts'), ...args, ...target], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, ...awsEnv(dataDir) },
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`admin ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
    return JSON.parse(run.stdout) as unknown;
  }

  function createKey(permissions = 'all', organizationId = credentials.organizationId) {
    const created = admin(
      'create-key',
      '--org',
      organizationId,
      '--name',
      `test ${permissions}`,
      '--permissions',
      permissions,
    );
    const { key, apiKey } = created as { key: { id: string }; apiKey: string };
    return { keyId: key.id, apiKey };
  }

  return {
    baseUrl,
    dataDir,
    credentials,
    logs: () => output,
    advanceClock: async (ms) => {
      const response = await fetch(`${baseUrl}/__dev/clock`, {
        method: 'POST',
        body: JSON.stringify({ advanceMs: ms }),
      });
      if (!response.ok) throw new Error(`clock hook answered ${response.status}`);
    },
    clockNow: async () => {
      const response = await fetch(`${baseUrl}/__dev/clock`);
      if (!response.ok) throw new Error(`clock hook answered ${response.status}`);
      return Date.parse(((await response.json()) as { now: string }).now);
    },
    admin,
    createKey,
    otherOrganization: (name = 'Other firm') => {
      const { id } = admin('create-org', '--name', name) as { id: string };
      return { organizationId: id, apiKey: createKey('all', id).apiKey };
    },
    stop: () => stop('SIGTERM'),
    kill: (signal) => stop(signal),
  };

  async function stop(signal: NodeJS.Signals): Promise<void> {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
    // What the server said, beside its data, for a failing test to be read after the run.
    writeFileSync(join(dataDir, 'server.log'), output);
    if (RUNTIME === 'aws') {
      // IAM, recorded: a call the template's role would not allow fails the test that stops the server.
      const { recordedCalls, templateGrants, violations } = await import('./iam-check');
      const refused = violations(recordedCalls(dataDir), templateGrants());
      if (refused.length) throw new Error(`SDK calls the template does not allow:\n${refused.join('\n')}`);
    }
  }
}

/** fetch with the API key; never follows redirects (tests inspect them). */
export function api(server: RunningServer, key = server.credentials.apiKey) {
  return (path: string, init: RequestInit = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      redirect: 'manual',
      ...init,
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        ...(init.headers ?? {}),
      },
    });
}
