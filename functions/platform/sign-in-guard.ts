// The check every request that sets or clears a console session passes first (the development sign-in,
// a portal link's exchange, sign-out): it must come from the console's own page. A cross-site form can
// post to any URL and its response's cookie is kept (login CSRF); what it cannot do is send a JSON body
// or a custom header without a CORS preflight, which nothing here ever grants, and a browser says where
// the request came from in Origin and Sec-Fetch-Site.

/** The header the console's own calls carry; a cross-site form or image cannot set it. */
export const CSRF_HEADER = 'x-console-request';

/** Headers by lower-cased name, as both the local server and API Gateway events can give them. */
export type HeaderLookup = (name: string) => string | undefined;

export function headerLookup(headers: Record<string, string | string[] | undefined> | null): HeaderLookup {
  const lowered = new Map<string, string>();
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value !== undefined) lowered.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value);
  }
  return (name) => lowered.get(name.toLowerCase());
}

/**
 * Why a session-changing request is refused, or undefined when it came from the console's own page.
 * `ownOrigin` is the origin the console is served on (scheme://host[:port]), when the caller knows it.
 * A sign-out has no body to check: it only needs the header and the origin.
 */
export function sessionChangeRefusal(
  header: HeaderLookup,
  ownOrigin: string | undefined,
  options: { jsonBody: boolean } = { jsonBody: true },
): string | undefined {
  if (header(CSRF_HEADER) !== '1') return 'the request does not come from the console page';
  const type = (header('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (options.jsonBody && type !== 'application/json') return 'the request body must be application/json';
  const site = header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin') return 'the request comes from another site';
  const origin = header('origin');
  if (origin !== undefined && ownOrigin !== undefined && origin !== ownOrigin)
    return 'the request comes from another origin';
  return undefined;
}
