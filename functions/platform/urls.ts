// One reading of a URL a client gives us (return_url, webhook endpoint url): what we store, redirect to
// and deliver to is the WHATWG-normalised form, so what was validated is exactly what is used.

/** C0 controls, space, DEL: never part of a URL; WHATWG parsing would silently strip or encode them. */
const forbidden = (char: string): boolean => char.charCodeAt(0) <= 0x20 || char.charCodeAt(0) === 0x7f;

/**
 * Why a URL as typed is refused before parsing, or undefined. Surrounding spaces, tabs, CR, LF and
 * NUL are refused rather than trimmed: a client that sends them has a bug we should not hide.
 */
export function rawUrlProblem(raw: string): string | undefined {
  return [...raw].some(forbidden) ? 'must not contain spaces or control characters' : undefined;
}

/**
 * The normalised URL: scheme and host lower-cased, an IDN host in punycode, non-ASCII and unsafe
 * characters percent-encoded, `https:host` spelled `https://host/`. Call on a URL that parses.
 */
export function normalizeUrl(raw: string): string {
  return new URL(raw).href;
}
