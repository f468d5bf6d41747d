// The client libraries' generated layers, from docs/openapi.json:
//   generate   regenerates clients/typescript/src/generated and clients/python/src/ces_client/_generated,
//              and records the document's hash beside each package's version (api-document.json)
//              and the webhook test vectors from the service's signer (scripts/webhook-vectors.ts)
//   check      fails when the committed generated code differs from a fresh generation, or when the
//              document changed without a version bump of each client, or when the TypeScript package
//              or its README's program does not compile as published (NodeNext) (CI)
// The Python generator runs from .venv-clients/ (scripts/python-venv.sh), pinned by
// clients/python/requirements-dev.txt; the TypeScript one is openapi-typescript, pinned in package.json.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeVectors } from './webhook-vectors';

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const DOCUMENT = join(ROOT, 'docs', 'openapi.json');
export const CLIENTS_VENV = join(ROOT, '.venv-clients');
const PYTHON_REQUIREMENTS = join(ROOT, 'clients', 'python', 'requirements-dev.txt');

interface Client {
  name: string;
  dir: string;
  /** The generated layer, relative to dir: replaced whole by a generation. */
  generated: string;
  version(): string;
  generate(into: string): void;
}

function run(command: string, args: string[], env: Record<string, string> = {}): void {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status})`);
}

/** The venv with the Python generator and the Python client's test tools. */
export function ensureClientsVenv(): string {
  run('bash', [join(ROOT, 'scripts', 'python-venv.sh'), CLIENTS_VENV, PYTHON_REQUIREMENTS]);
  return CLIENTS_VENV;
}

const typescript: Client = {
  name: 'typescript',
  dir: join(ROOT, 'clients', 'typescript'),
  generated: join('src', 'generated'),
  version: () =>
    (
      JSON.parse(readFileSync(join(ROOT, 'clients', 'typescript', 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version,
  generate: (into) =>
    run(join(ROOT, 'node_modules', '.bin', 'openapi-typescript'), [
      DOCUMENT,
      '--output',
      join(into, 'schema.ts'),
    ]),
};

const python: Client = {
  name: 'python',
  dir: join(ROOT, 'clients', 'python'),
  generated: join('src', 'ces_client', '_generated'),
  version: () => {
    const pyproject = readFileSync(join(ROOT, 'clients', 'python', 'pyproject.toml'), 'utf8');
    const match = /^version = "([^"]+)"$/m.exec(pyproject);
    if (!match) throw new Error('clients/python/pyproject.toml has no version line');
    return match[1]!;
  },
  generate: (into) => {
    const venv = ensureClientsVenv();
    // ruff (the generator's formatting hooks) is found on PATH.
    run(
      join(venv, 'bin', 'openapi-python-client'),
      [
        'generate',
        '--path',
        DOCUMENT,
        '--meta',
        'none',
        '--output-path',
        into,
        '--overwrite',
        '--config',
        join(ROOT, 'clients', 'python', 'openapi-python-client.yaml'),
      ],
      { PATH: `${join(venv, 'bin')}:${process.env.PATH ?? ''}` },
    );
  },
};

const CLIENTS = [typescript, python];

export interface Stamp {
  version: string;
  document_sha256: string;
}

const stampFile = (client: Client) => join(client.dir, 'api-document.json');
const documentHash = () => createHash('sha256').update(readFileSync(DOCUMENT)).digest('hex');
const readStamp = (client: Client): Stamp | undefined =>
  existsSync(stampFile(client)) ? (JSON.parse(readFileSync(stampFile(client), 'utf8')) as Stamp) : undefined;

/**
 * Why the recorded (version, document) pair does not fit the current ones; undefined when it does. A
 * changed document with the version still the recorded one is refused outright: the version must move.
 */
export function stampProblem(
  name: string,
  stamp: Stamp | undefined,
  current: { version: string; documentSha256: string },
): { kind: 'missing' | 'not-bumped' | 'stale'; message: string } | undefined {
  if (!stamp)
    return { kind: 'missing', message: `${name}: no api-document.json; run \`npm run clients:generate\`` };
  if (stamp.document_sha256 !== current.documentSha256 && stamp.version === current.version)
    return {
      kind: 'not-bumped',
      message:
        `${name}: docs/openapi.json changed but the client's version is still ${stamp.version}; ` +
        'bump it, then run `npm run clients:generate`',
    };
  if (stamp.document_sha256 !== current.documentSha256 || stamp.version !== current.version)
    return {
      kind: 'stale',
      message: `${name}: generated from another document or version; run \`npm run clients:generate\``,
    };
  return undefined;
}

async function generate(): Promise<void> {
  await writeVectors();
  const hash = documentHash();
  for (const client of CLIENTS) {
    const problem = stampProblem(client.name, readStamp(client), {
      version: client.version(),
      documentSha256: hash,
    });
    if (problem?.kind === 'not-bumped') throw new Error(problem.message);
    const target = join(client.dir, client.generated);
    rmSync(target, { recursive: true, force: true });
    client.generate(target);
    const next: Stamp = { version: client.version(), document_sha256: hash };
    writeFileSync(stampFile(client), `${JSON.stringify(next, null, 2)}\n`);
    console.log(`${client.name}: generated ${client.generated} for version ${next.version}`);
  }
}

function check(): void {
  const problems: string[] = [];
  for (const client of CLIENTS) {
    const current = { version: client.version(), documentSha256: documentHash() };
    const problem = stampProblem(client.name, readStamp(client), current);
    if (problem) problems.push(problem.message);
    const fresh = mkdtempSync(join(tmpdir(), `ces-client-${client.name}-`));
    try {
      client.generate(join(fresh, 'out'));
      const committed = join(client.dir, client.generated);
      // Compared as copies, so a stray cache (__pycache__) beside the committed files does not count.
      const copy = join(fresh, 'committed');
      cpSync(committed, copy, { recursive: true, filter: (path) => !path.includes('__pycache__') });
      const diff = spawnSync('diff', ['-r', '-q', '-x', '__pycache__', copy, join(fresh, 'out')], {
        encoding: 'utf8',
      });
      if (diff.status !== 0) {
        problems.push(
          `${client.name}: ${client.generated} differs from a fresh generation (never edit it by hand; ` +
            `run \`npm run clients:generate\`):\n${diff.stdout}${diff.stderr}`,
        );
      }
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }
  // The TypeScript package as it is built and published (NodeNext), and its README's program against it.
  for (const project of ['tsconfig.json', 'tsconfig.examples.json']) {
    const tsc = spawnSync(
      join(ROOT, 'node_modules', '.bin', 'tsc'),
      ['--noEmit', '-p', join(typescript.dir, project)],
      { encoding: 'utf8' },
    );
    if (tsc.status !== 0)
      problems.push(`typescript: ${project} does not compile:\n${tsc.stdout}${tsc.stderr}`);
  }
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log('clients: the generated code and versions are current for docs/openapi.json');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const command = process.argv[2];
  if (command === 'generate') await generate();
  else if (command === 'check') check();
  else {
    console.error('usage: tsx scripts/clients.ts generate|check');
    process.exit(2);
  }
}
