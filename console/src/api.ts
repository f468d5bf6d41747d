// The console's only way to the service: the public API on the same origin, with the console session
// as the bearer. The session lives in this module's memory only (never a URL, storage or a log).

export interface ApiError {
  status: number;
  code: string;
  message: string;
}

export interface Session {
  token: string;
  role: 'owner' | 'admin' | 'member';
  organizationId: string;
  userId: string;
}

let session: Session | undefined;

export const currentSession = (): Session | undefined => session;
export const setSession = (next: Session | undefined): void => {
  session = next;
};
export const canWrite = (): boolean => session?.role === 'owner' || session?.role === 'admin';

export class ApiFailure extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

/** The JWT's claims, read (not verified: the API verifies) to show who is signed in and with what role. */
export function sessionFromToken(token: string): Session {
  const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as {
    role: Session['role'];
    org_id: string;
    sub: string;
  };
  return { token, role: payload.role, organizationId: payload.org_id, userId: payload.sub };
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (session) headers.Authorization = `Bearer ${session.token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      credentials: 'omit',
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
