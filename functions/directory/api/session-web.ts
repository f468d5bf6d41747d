// What the session paths share: the session cookie as each kind of session sets and clears it, the
// origin the console is served on, the refusal of a session change from any other page, and the page
// headers with framing limited to the organization's allowed origins.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { bearerToken } from '../../platform/api-keys';
import { PermissionDeniedError } from '../../platform/errors';
import { publicBaseUrl } from '../../platform/http';
import { headerLookup, sessionChangeRefusal } from '../../platform/sign-in-guard';
import type { PortalSettings } from '../domain/portal';

/** The cookie every console session lives in (the edge and the local server read this name). */
export const SESSION_COOKIE = 'console_session';

/**
 * The header CloudFront's viewer-request function sets to the origin the viewer reached (lib/console-edge.ts):
 * behind the distribution API Gateway sees its own host, not the console's.
 */
const CONSOLE_ORIGIN_HEADER = 'x-console-origin';

/**
 * The cookie for a session. A portal session is made to work inside a frame on the customer's site:
 * SameSite=None (a frame's requests are cross-site to the top page) and Partitioned (CHIPS: kept per
 * top-level site, so browsers that block third-party cookies still keep it, and it cannot follow the
 * user to other sites). An operator's console session is a top-level page: SameSite=Strict, as the
 * development sign-in sets it. Secure always (browsers treat localhost as secure).
 */
export function sessionCookie(kind: 'portal' | 'console', token: string, maxAgeSeconds: number): string {
  const site = kind === 'portal' ? 'SameSite=None; Partitioned' : 'SameSite=Strict';
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; Secure; ${site}; Max-Age=${maxAgeSeconds}`;
}

/** Both cookies cleared: a partitioned cookie is only replaced by one that says Partitioned too. */
export const clearedSessionCookies = (): string[] => [
  sessionCookie('console', '', 0),
  sessionCookie('portal', '', 0),
];

/** The origin the console is served on: the distribution's (from the edge), else the API's own. */
export function consoleOrigin(event: APIGatewayProxyEvent): string {
  const fromEdge = headerLookup(event.headers)(CONSOLE_ORIGIN_HEADER);
  return fromEdge && /^https:\/\/[a-z0-9.-]+$/i.test(fromEdge)
    ? fromEdge
    : new URL(publicBaseUrl(event)).origin;
}

/** A session change (exchange, sign-out) from anywhere but the console's own pages: 403 (login CSRF). */
export function assertFromConsolePage(event: APIGatewayProxyEvent, options: { jsonBody: boolean }): void {
  const reason = sessionChangeRefusal(headerLookup(event.headers), consoleOrigin(event), options);
  if (reason) throw new PermissionDeniedError(`Refused: ${reason}`);
}

/** The bearer the edge made of the session cookie (only for requests carrying X-Console-Request). */
export const presentedSession = (event: APIGatewayProxyEvent): string | undefined =>
  bearerToken(headerLookup(event.headers)('authorization'));

/**
 * The headers of a page a link or session opens: the console's policy, with framing allowed to the
 * organization's listed origins only (none by default: then X-Frame-Options says so too for old browsers),
 * and the organization's logo host among the image sources.
 */
export function pageHeaders(settings: PortalSettings | undefined): Record<string, string> {
  const ancestors = settings?.frameAncestors.length ? settings.frameAncestors.join(' ') : "'none'";
  const logo = settings?.logoUrl ? ` ${new URL(settings.logoUrl).origin}` : '';
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': `default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:${logo}; frame-ancestors ${ancestors}; base-uri 'none'; form-action 'self'`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    ...(settings?.frameAncestors.length ? {} : { 'X-Frame-Options': 'DENY' }),
  };
}

/** A console page: the stylesheet and one of the console's scripts (served with the console's files). */
export function consolePage(title: string, script: 'console.js' | 'open.js', status: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <meta name="robots" content="noindex" />
    <title>${title}</title>
    <link rel="stylesheet" href="/console/console.css" />
    <script type="module" src="/console/${script}"></script>
  </head>
  <body>
    <main id="main"><p class="loading" role="status">${status}</p></main>
  </body>
</html>
`;
}
