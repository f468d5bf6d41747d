// The console's only way to the service: the public API on the same origin. The session token lives in
// an HttpOnly, SameSite=Strict cookie that no script (this one or an injected one) can read; every call
// carries the X-Console-Request header, without which the edge does not turn the cookie into the
// bearer (a cross-site form cannot set it). This module holds only who is signed in and with what role.

export interface ApiError {
  status: number;
  code: string;
  message: string;
}

export type Section = 'webhooks' | 'connections';

/** Who is signed in (GET /connectors/v1/session): never the token. */
export interface Session {
  /** console: the whole console; portal: a customer's users, some sections, perhaps in a frame. */
  kind: 'console' | 'portal';
  role: 'owner' | 'admin' | 'member' | 'read-only' | 'manage';
  organizationId: string;
  organizationName: string | null;
  userId: string;
  expiresAt: string;
  sections: Section[];
  /** The page the session starts on. */
  home: string;
  theme: { brandColor: string | null; logoUrl: string | null; appearance: 'light' | 'dark' | 'system' };
}

export const SESSION_PATH = '/connectors/v1/session';

let session: Session | undefined;

export const currentSession = (): Session | undefined => session;
export const setSession = (next: Session | undefined): void => {
  session = next;
};
export const canWrite = (): boolean =>
  session?.role === 'owner' || session?.role === 'admin' || session?.role === 'manage';
export const inPortal = (): boolean => session?.kind === 'portal';
/** Whether the session shows a section: a portal only its granted ones. */
export const shows = (section: Section): boolean => session?.sections.includes(section) ?? false;

export class ApiFailure extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

/** Who the session cookie signs in, if anyone (a reload, a link opened in a new tab). */
export async function restoreSession(): Promise<Session | undefined> {
  try {
    session = await api<Session>('GET', SESSION_PATH);
  } catch {
    session = undefined;
  }
  return session;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'X-Console-Request': '1' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiFailure({ status: 0, code: 'NETWORK', message: 'The service could not be reached' });
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.status === 401 && session) {
    // The session expired or was refused: back to sign-in rather than a page of errors.
    session = undefined;
    window.dispatchEvent(new CustomEvent('console:session-ended'));
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ApiFailure({
      status: response.status,
      code: error?.code ?? 'HTTP_' + response.status,
      message: error?.message ?? `The service answered ${response.status}`,
    });
  }
  return parsed as T;
}

export interface Page<T> {
  data: T[];
  limit: number;
  offset: number;
  hasMore: boolean;
}
