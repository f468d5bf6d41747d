// Reading a Retry-After header, shared by the token endpoint's client and the content transport (which
// must not depend on the provider registry the OAuth client reads).
/** Retry-After is delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null): { seconds?: number; at?: number } {
  const text = value?.trim();
  if (!text) return {};
  if (/^\d+(\.\d+)?$/.test(text)) return { seconds: Number(text) };
  const at = Date.parse(text);
  return Number.isFinite(at) ? { at } : {};
}
