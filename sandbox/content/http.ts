// HTTP pieces of the sandbox provider's content APIs: the error and JSON answers, limits and opaque
// page tokens, uploads read as a stream under a cap, and downloads written as a stream.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as z from 'zod';
import type { FileNode } from './tree';
import { contentChunks } from './tree';

/** An answer other than success, as the providers give it: `{"error": code}` (OAuth style). */
export class SandboxApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description ?? code);
  }
}

/** A feed position from before the feed's reset (a test hook): the sandbox APIs answer 410. */
export const feedExpired = (what: string) =>
  new SandboxApiError(410, 'cursor_expired', `${what} is too old: list from the start (no ${what})`);

export const invalidRequest = (description: string) =>
  new SandboxApiError(400, 'invalid_request', description);
export const notFound = (description: string) => new SandboxApiError(404, 'not_found', description);

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
    ...headers,
  });
  response.end(text);
}

export function sendError(response: ServerResponse, error: SandboxApiError): void {
  const body = error.description
    ? { error: error.code, error_description: error.description }
    : { error: error.code };
  sendJson(response, error.status, body, error.headers);
}

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

/** `limit`: digits only, 1 to 1000, 100 when absent. */
export function parseLimit(query: URLSearchParams): number {
  const raw = query.get('limit');
  if (raw === null) return DEFAULT_LIMIT;
  const limit = /^\d{1,4}$/.test(raw) ? Number(raw) : 0;
  if (limit < 1 || limit > MAX_LIMIT) throw invalidRequest(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  return limit;
}

/** Page tokens and cursors are base64url JSON: opaque to clients, checked when they come back. */
export const encodeToken = (value: unknown): string =>
  Buffer.from(JSON.stringify(value)).toString('base64url');

export function decodeToken<T>(raw: string, schema: z.ZodType<T>, name: string): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalidRequest(`${name} is not one this provider issued`);
  }
  const checked = schema.safeParse(parsed);
  if (!checked.success || raw.length > 2048) throw invalidRequest(`${name} is not one this provider issued`);
  return checked.data;
}

const CONTROL = /\p{Cc}/u;

/** A file or document name: 1 to 255 characters, no slash, no control character. */
export function checkName(name: string | null): string {
  if (!name || name.length > 255 || name.includes('/') || CONTROL.test(name) || name === '.' || name === '..')
    throw invalidRequest('name must be 1-255 characters without "/" or control characters');
  return name;
}

/**
 * An upload's conditions (RFC 9110): `If-None-Match: *` creates only (a name held by another file, or
 * by other bytes, is 412: the same bytes again are the same upload retried), `If-Match: "<version>"`
 * writes only over that version of the file of that name. Without either, the write goes through.
 */
export function checkPreconditions(
  request: IncomingMessage,
  existing: { version: number } | undefined,
  sameBytes: boolean,
): void {
  const noneMatch = request.headers['if-none-match'];
  const match = request.headers['if-match'];
  if (noneMatch !== undefined && noneMatch.trim() !== '*')
    throw invalidRequest('If-None-Match on an upload must be *');
  if (noneMatch !== undefined && existing && !sameBytes)
    throw new SandboxApiError(412, 'precondition_failed', 'a file of that name exists');
  if (match !== undefined) {
    const wanted = match.trim().replace(/^W\//, '').replace(/"/g, '');
    if (!existing || String(existing.version) !== wanted)
      throw new SandboxApiError(412, 'precondition_failed', 'the file is not at that version');
  }
}

/** The upload's Content-Type (application/octet-stream when absent). */
export function uploadType(request: IncomingMessage): string {
  const type = request.headers['content-type'] ?? 'application/octet-stream';
  if (type.length > 255 || CONTROL.test(type) || !type.includes('/'))
    throw invalidRequest('Content-Type must be a media type');
  return type;
}

const tooLarge = (maxBytes: number) =>
  new SandboxApiError(413, 'payload_too_large', `the body is larger than ${maxBytes} bytes`, {
    Connection: 'close', // do not make the client send the rest
  });

export interface Upload {
  chunks: Buffer[];
  size: number;
  sha256: string;
}

/**
 * Reads a request body as it arrives, hashing it, refusing it (413) as soon as it passes `maxBytes`:
 * at once when its Content-Length says so, else when the bytes that came pass the cap.
 */
export function readUpload(request: IncomingMessage, maxBytes: number): Promise<Upload> {
  const declared = request.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) return Promise.reject(tooLarge(maxBytes));
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        // Stop reading without destroying the socket, so the 413 still reaches the client.
        request.off('data', onData);
        request.pause();
        reject(tooLarge(maxBytes));
        return;
      }
      hash.update(chunk);
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.once('end', () => resolve({ chunks, size, sha256: hash.digest('hex') }));
    request.once('error', reject);
    request.once('close', () =>
      reject(new SandboxApiError(400, 'invalid_request', 'the body was cut short')),
    );
  });
}

/** Reads a small JSON body (a test hook's). */
export async function readJson(request: IncomingMessage, maxBytes = 16 * 1024 * 1024): Promise<unknown> {
  const { chunks } = await readUpload(request, maxBytes);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text ? (JSON.parse(text) as unknown) : {};
  } catch {
    throw invalidRequest('the body is not JSON');
  }
}

/** The chunks, with a pause after the first (a download that stalls mid-way, for tests). */
async function* stalled(chunks: Iterable<Buffer>, ms: number): AsyncGenerator<Buffer> {
  let first = true;
  for (const chunk of chunks) {
    yield chunk;
    if (first && ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    first = false;
  }
}

/**
 * A file's bytes, streamed with backpressure (a generated file is produced chunk by chunk as the
 * client reads), with its Content-Type, Content-Length and the version as a strong ETag.
 */
export async function sendContent(
  request: IncomingMessage,
  response: ServerResponse,
  file: FileNode,
  stallMs = 0,
): Promise<void> {
  const etag = `"${file.version}"`;
  const headers = { ETag: etag, 'Cache-Control': 'private, no-cache' };
  const match = request.headers['if-none-match'];
  if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
    response.writeHead(304, headers);
    response.end();
    return;
  }
  response.writeHead(200, {
    ...headers,
    'Content-Type': file.contentType,
    'Content-Length': String(file.content.size),
  });
  try {
    await pipeline(Readable.from(stalled(contentChunks(file), stallMs), { objectMode: false }), response);
  } catch {
    // The client went away mid-download: nothing to answer.
  }
}

/**
 * A multipart/form-data upload of two parts in this order, as Box and iManage take one: a JSON object
 * part named `names.json` (its metadata) and the file part named `names.file` (its bytes and type).
 * `refuse` words a malformed body in the provider's own error.
 */
export function jsonAndFileParts(
  request: IncomingMessage,
  body: Buffer,
  names: { json: string; file: string },
  refuse: (message: string) => Error,
): { json: Record<string, unknown>; bytes: Buffer; type: string } {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(request.headers['content-type'] ?? '');
  const mark = boundary?.[1] ?? boundary?.[2];
  if (!mark || !/^multipart\/form-data/i.test(request.headers['content-type'] ?? ''))
    throw refuse('Expected a multipart/form-data body');
  const delimiter = Buffer.from(`--${mark}`);
  const parts: { headers: string; data: Buffer }[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) throw refuse('The multipart body is cut short');
    const part = body.subarray(start + 2, next - 2); // after CRLF, before CRLF
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) throw refuse('A multipart part has no headers');
    parts.push({ headers: part.subarray(0, split).toString('utf8'), data: part.subarray(split + 4) });
    at = next;
  }
  const name = (p: { headers: string }) => /name="([^"]*)"/i.exec(p.headers)?.[1];
  // The metadata is read first: a file part before it is refused.
  if (parts.length !== 2 || name(parts[0]!) !== names.json || name(parts[1]!) !== names.file)
    throw refuse(`The body must hold \`${names.json}\` and then \`${names.file}\``);
  let json: unknown;
  try {
    json = JSON.parse(parts[0]!.data.toString('utf8'));
  } catch {
    throw refuse(`${names.json} is not JSON`);
  }
  if (!json || typeof json !== 'object') throw refuse(`${names.json} is not an object`);
  const type = /content-type:\s*([^\r\n]+)/i.exec(parts[1]!.headers)?.[1] ?? 'application/octet-stream';
  return { json: json as Record<string, unknown>, bytes: parts[1]!.data, type };
}
