// The console on the local server: /console/ serves the static page, its stylesheet and the script
// esbuild builds from console/src at start; POST /__dev/console/sign-in is the development identity
// provider's sign-in (a session for the development organization with the role picked). Never deployed:
// on AWS the same files come from S3 through CloudFront (lib/console-hosting.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONSOLE_ROLES } from '../../platform/console-sessions';
import type { ConsoleRole } from '../../platform/console-sessions';
import type { Clock } from '../../platform/clock';
import { loadDevConsoleIdentityProvider, mintConsoleSession } from '../identity/dev-console-idp';
import type { Extension } from './server';

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', '..');
export const CONSOLE_SOURCE = join(ROOT, 'console');
const SIGN_IN_PATH = '/__dev/console/sign-in';
const SESSION_TTL_SECONDS = 8 * 3600;

/** What the browser is told about every console file: same origin only, no framing, no sniffing. */
export const CONSOLE_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

export interface ConsoleAssets {
  files: Map<string, { type: string; body: Buffer }>;
}

/** Builds the console's script with esbuild and reads its static files: one map of path to file. */
export async function buildConsole(options: { outdir?: string } = {}): Promise<ConsoleAssets> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(CONSOLE_SOURCE, 'src', 'main.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    write: Boolean(options.outdir),
    outfile: options.outdir ? join(options.outdir, 'console.js') : 'console.js',
    logLevel: 'silent',
  });
  const files = new Map<string, { type: string; body: Buffer }>();
  const script = result.outputFiles?.[0];
  if (script)
    files.set('console.js', { type: 'text/javascript; charset=utf-8', body: Buffer.from(script.contents) });
  const statics: [string, string][] = [
    ['index.html', 'text/html; charset=utf-8'],
    ['connected.html', 'text/html; charset=utf-8'],
    ['console.css', 'text/css; charset=utf-8'],
  ];
  for (const [name, type] of statics) {
    files.set(name, { type, body: readFileSync(join(CONSOLE_SOURCE, 'public', name)) });
  }
  return { files };
}

function fileFor(pathname: string): string | undefined {
  if (pathname === '/console' || pathname === '/console/') return 'index.html';
  if (pathname === '/console/connected') return 'connected.html';
  const match = /^\/console\/([\w.-]+)$/.exec(pathname);
  return match?.[1];
}

export function consoleSite(options: { dataDir: string; clock: Clock }): Extension {
  const assets = buildConsole();
  assets.catch(() => undefined); // reported on the first request for a console file
  return async (request, response, url, body) => {
    if (url.pathname === SIGN_IN_PATH && request.method === 'POST') {
      let role: unknown;
      try {
        role = (JSON.parse(body.toString('utf8') || '{}') as { role?: unknown }).role;
      } catch {
        role = undefined;
      }
      response.setHeader('Content-Type', 'application/json');
      response.setHeader('Cache-Control', 'no-store');
      if (!CONSOLE_ROLES.includes(role as ConsoleRole)) {
        response.statusCode = 400;
        response.end(
          JSON.stringify({
            error: { code: 'INVALID_REQUEST', message: `role must be one of ${CONSOLE_ROLES.join(', ')}` },
          }),
        );
        return true;
      }
      const { organizationId } = JSON.parse(
        readFileSync(join(options.dataDir, 'credentials.json'), 'utf8'),
      ) as {
        organizationId: string;
      };
      const idp = await loadDevConsoleIdentityProvider(options.dataDir);
      const minted = await mintConsoleSession(
        idp,
        { organizationId, userId: `usr_development_${role as string}`, role: role as ConsoleRole },
        { ttlSeconds: SESSION_TTL_SECONDS, nowMs: options.clock.now() },
      );
      response.end(JSON.stringify({ token: minted.token, expiresAt: minted.expiresAt }));
      return true;
    }
    if (request.method !== 'GET' || !(url.pathname === '/console' || url.pathname.startsWith('/console/'))) {
      return false;
    }
    const name = fileFor(url.pathname);
    const file = name ? (await assets).files.get(name) : undefined;
    for (const [header, value] of Object.entries(CONSOLE_SECURITY_HEADERS)) response.setHeader(header, value);
    if (!file) {
      response.statusCode = 404;
      response.setHeader('Content-Type', 'text/plain; charset=utf-8');
      response.end('Not found');
      return true;
    }
    response.setHeader('Content-Type', file.type);
    response.setHeader('Cache-Control', 'no-cache');
    response.end(file.body);
    return true;
  };
}
