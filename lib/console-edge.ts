// The console's two CloudFront Functions (viewer request, cloudfront-js-2.0), as the source CloudFront
// runs. They are strings, not TypeScript functions turned back into text, so what is deployed is exactly
// what test/unit/console-edge.test.ts evaluates in node with CloudFront's event shape.

/** /console and /console/ are the page; /console/connected is where the connect flow comes back. */
export const CONSOLE_PATHS_CODE = `function handler(event) {
  var request = event.request;
  if (request.uri === '/console' || request.uri === '/console/') request.uri = '/console/index.html';
  else if (request.uri === '/console/connected') request.uri = '/console/connected.html';
  return request;
}`;

/** The session cookie the console's sign-in sets (functions/dev-runtime/server/console-site.ts). */
export const SESSION_COOKIE = 'console_session';

/**
 * The origin the viewer reached the distribution on, which API Gateway (seeing its own Host) cannot know:
 * the session routes check a session change's Origin against it and build sign-in links on it
 * (functions/directory/api/session-web.ts). Always set from Host here, never passed on from the viewer.
 */
export const CONSOLE_ORIGIN_HEADER = 'x-console-origin';

/**
 * The API behaviours' edge, as the local server's console extension does it (console-site.ts,
 * cookieToBearer): the session cookie never reaches API Gateway or its logs; a request that carries the
 * console's CSRF header X-Console-Request: 1 and no Authorization of its own has the cookie's token put
 * in Authorization as a bearer, which the authorizers verify as any other. Without the header (a
 * cross-site form, a plain link) the cookie authorizes nothing. CloudFront gives header names in lower
 * case and cookies parsed in `request.cookies`. Every request also gets the console's origin header.
 */
export const CONSOLE_SESSION_CODE = `function handler(event) {
  var request = event.request;
  var host = request.headers.host;
  if (host && host.value) request.headers['${CONSOLE_ORIGIN_HEADER}'] = { value: 'https://' + host.value };
  else delete request.headers['${CONSOLE_ORIGIN_HEADER}'];
  var cookies = request.cookies || {};
  var session = cookies['${SESSION_COOKIE}'];
  if (!session) return request;
  delete cookies['${SESSION_COOKIE}'];
  var csrf = request.headers['x-console-request'];
  if (session.value && csrf && csrf.value === '1' && !request.headers.authorization) {
    request.headers.authorization = { value: 'Bearer ' + session.value };
  }
  return request;
}`;
