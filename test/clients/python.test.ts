// The Python client (clients/python) against the local server: starts the server, makes the keys the
// tests need, and runs the client's pytest suite in the venv scripts/python-venv.sh makes
// (.venv-clients/, the generator's venv); pytest's summary is printed, its exit status decides.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { RunningServer } from '../support/local-server';
import { startLocalServer } from '../support/local-server';
import { ensureClientsVenv } from '../../scripts/clients';

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');
let server: RunningServer;

beforeAll(async () => {
  server = await startLocalServer({ RATE_LIMIT_PER_MINUTE: '1200', RATE_LIMIT_BURST: '40' });
});

afterAll(async () => {
  await server?.stop();
});

it('passes the Python client suite (the walkthrough, errors, webhook vectors)', async () => {
  const venv = ensureClientsVenv();
  const { status, output } = await new Promise<{ status: number | null; output: string }>((resolve) => {
    let output = '';
    const pytest = spawn(
      join(venv, 'bin', 'python'),
      ['-m', 'pytest', '-p', 'no:cacheprovider', '-rA', join(ROOT, 'clients', 'python', 'tests')],
      {
        cwd: join(ROOT, 'clients', 'python'),
        env: {
          ...process.env,
          PYTHONPATH: join(ROOT, 'clients', 'python', 'src'),
          PYTHONDONTWRITEBYTECODE: '1',
          CES_BASE_URL: server.baseUrl,
          CES_API_KEY: server.credentials.apiKey,
          CES_SYSTEM_KEY: server.credentials.systemKey,
          CES_ORGANIZATION_ID: server.credentials.organizationId,
          CES_READ_KEY: server.createKey('connectors:read').apiKey,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    pytest.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    pytest.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    pytest.on('close', (code) => resolve({ status: code, output }));
  });
  // The closing summary (and any failure) in the test run's output.
  console.log(
    output.slice(
      output.lastIndexOf('short test summary') > 0 ? output.lastIndexOf('short test summary') - 40 : -4000,
    ),
  );
  expect(status).toBe(0);
}, 300_000);
