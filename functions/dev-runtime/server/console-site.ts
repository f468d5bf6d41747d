// The console on the local server: /console/ serves the static page, its stylesheet and the scripts
// esbuild builds from console/src at start; POST /__dev/console/sign-in is the development identity
// provider's sign-in (a session for the development organization with the role picked), kept in an
// HttpOnly, SameSite=Strict cookie that script cannot read; GET /__dev/console/session tells the console
// who is signed in (the claims, never the token) and POST /__dev/console/sign-out ends it. The console's
// API calls carry the CSRF header X-Console-Request, and only then does this edge turn the cookie into
// the bearer the authorizers verify (docs/decisions.md, "Console session"). Never deployed:
// on AWS the same files come from S3 through CloudFront (lib/console-hosting.ts).
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeJwt } from 'jose';
import { join } from 'node:path';
import { CONSOLE_ROLES } from '../../platform/console-sessions';
import type { ConsoleRole } from '../../platform/console-sessions';
import type { Clock } from '../../platform/clock';
import { loadDevConsoleIdentityProvider, mintConsoleSession } from '../identity/dev-console-idp';
import type { Extension } from './server';
import { CSRF_HEADER, headerLookup, sessionChangeRefusal } from '../../platform/sign-in-guard';

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', '..');
export const CONSOLE_SOURCE = join(ROOT, 'console');
const SIGN_IN_PATH = '/__dev/console/sign-in';
const SESSION_PATH = '/__dev/console/session';
const SIGN_OUT_PATH = '/__dev/console/sign-out';
const SESSION_TTL_SECONDS = 8 * 3600;
/** The session cookie: HttpOnly (no script reads it), SameSite=Strict, sent to the API on this origin. */
export const SESSION_COOKIE = 'console_session';
export { CSRF_HEADER };

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
  const files = new Map<string, { type: string; body: Buffer }>();
  // The console, and the connect flow's landing page (its own small script: no console in that tab).
  for (const [entry, name] of [
    ['main.ts', 'console.js'],
    ['connected.ts', 'connected.js'],
    // The page a sign-in link opens (functions/directory/api/handlers/open-portal-link.ts).
    ['open.ts', 'open.js'],
  ] as const) {
    const result = await build({
      entryPoints: [join(CONSOLE_SOURCE, 'src', entry)],
      bundle: true,
      format: 'esm',
      target: 'es2022',
      minify: true,
      sourcemap: false,
      write: Boolean(options.outdir),
      outfile: options.outdir ? join(options.outdir, name) : name,
      logLevel: 'silent',
    });
    const script = result.outputFiles?.[0];
    if (script)
      files.set(name, { type: 'text/javascript; charset=utf-8', body: Buffer.from(script.contents) });
  }
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

/** The value of cookie `name` in a Cookie header. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=') || undefined;
  }
  return undefined;
}

function sessionCookie(request: IncomingMessage, value: string, maxAgeSeconds: number): string {
  // Secure whenever the console is reached over https (a proxy in front says so); plain http is loopback.
  const secure = request.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

/**
 * An API request: the session cookie never travels on to a handler; with the console's CSRF header and
 * no Authorization of its own, the cookie's session becomes the bearer the authorizers verify.
 */
function cookieToBearer(request: IncomingMessage): void {
  const raw = request.rawHeaders;
  let token: string | undefined;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if (raw[i]!.toLowerCase() !== 'cookie') continue;
    token ??= cookieValue(raw[i + 1], SESSION_COOKIE);
    const others = raw[i + 1]!.split(';')
      .map((part) => part.trim())
      .filter((part) => part && !part.startsWith(`${SESSION_COOKIE}=`));
    if (others.length) raw[i + 1] = others.join('; ');
    else raw.splice(i, 2);
  }
  const hasAuthorization = raw.some((name, i) => i % 2 === 0 && name.toLowerCase() === 'authorization');
  if (token && request.headers[CSRF_HEADER] === '1' && !hasAuthorization)
    raw.push('Authorization', `Bearer ${token}`);
}

function answer(response: ServerResponse, status: number, body: unknown, cookie?: string): true {
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json');
  response.setHeader('Cache-Control', 'no-store');
  if (cookie) response.setHeader('Set-Cookie', cookie);
  response.end(JSON.stringify(body));
  return true;
}

const signedOut = () => ({ error: { code: 'AUTH_REQUIRED', message: 'Not signed in' } });

/** The origin this request reached the server on: what a same-origin page's Origin header says. */
function ownOrigin(request: IncomingMessage): string | undefined {
  const host = request.headers.host;
  if (!host) return undefined;
  return `${request.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http'}://${host}`;
}

/** A session change from anywhere but the console's own page (login CSRF): 403, the session untouched. */
function refuseForeign(request: IncomingMessage, response: ServerResponse, jsonBody: boolean): boolean {
  const reason = sessionChangeRefusal(headerLookup(request.headers), ownOrigin(request), { jsonBody });
  if (!reason) return false;
  answer(response, 403, { error: { code: 'FORBIDDEN', message: `Refused: ${reason}` } });
  return true;
}

export function consoleSite(options: { dataDir: string; clock: Clock }): Extension {
  const assets = buildConsole();
  assets.catch(() => undefined); // reported on the first request for a console file
  return async (request, response, url, body) => {
    if (url.pathname === SIGN_IN_PATH && request.method === 'POST') {
      if (refuseForeign(request, response, true)) return true;
      let role: unknown;
      try {
        role = (JSON.parse(body.toString('utf8') || '{}') as { role?: unknown }).role;
      } catch {
        role = undefined;
      }
      if (!CONSOLE_ROLES.includes(role as ConsoleRole)) {
        return answer(response, 400, {
          error: { code: 'INVALID_REQUEST', message: `role must be one of ${CONSOLE_ROLES.join(', ')}` },
        });
      }
      const { organizationId } = JSON.parse(
        readFileSync(join(options.dataDir, 'credentials.json'), 'utf8'),
      ) as {
        organizationId: string;
      };
      const idp = await loadDevConsoleIdentityProvider(options.dataDir);
      const userId = `usr_development_${role as string}`;
      const minted = await mintConsoleSession(
        idp,
        { organizationId, userId, role: role as ConsoleRole },
        { ttlSeconds: SESSION_TTL_SECONDS, nowMs: options.clock.now() },
      );
      // The token goes into the HttpOnly cookie only: the page learns who is signed in, never the token.
      return answer(
        response,
        200,
        { role, organizationId, userId, expiresAt: minted.expiresAt },
        sessionCookie(request, minted.token, SESSION_TTL_SECONDS),
      );
    }
    if (url.pathname === SESSION_PATH && request.method === 'GET') {
      const token = cookieValue(request.headers.cookie, SESSION_COOKIE);
      if (!token) return answer(response, 401, signedOut());
      let claims: ReturnType<typeof decodeJwt>;
      try {
        claims = decodeJwt(token);
      } catch {
        return answer(response, 401, signedOut(), sessionCookie(request, '', 0));
      }
      // The claims to show who is signed in; every API call verifies the token itself.
      if (!claims.exp || claims.exp * 1000 <= options.clock.now())
        return answer(response, 401, signedOut(), sessionCookie(request, '', 0));
      return answer(response, 200, {
        role: claims.role,
        organizationId: claims.org_id,
        userId: claims.sub,
        expiresAt: new Date(claims.exp * 1000).toISOString(),
      });
    }
    if (url.pathname === SIGN_OUT_PATH && request.method === 'POST') {
      if (refuseForeign(request, response, false)) return true;
      response.statusCode = 204;
      response.setHeader('Set-Cookie', sessionCookie(request, '', 0));
      response.end();
      return true;
    }
    if (request.method !== 'GET' || !(url.pathname === '/console' || url.pathname.startsWith('/console/'))) {
      if (!url.pathname.startsWith('/__dev/')) cookieToBearer(request);
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
