// The practice-management shape of the sandbox's content API (routes documented in ./mount.ts):
// matters and their documents, a delta feed with sync tokens, downloads, and uploads made safe to
// retry by an Idempotency-Key.
import * as z from 'zod';
import { isoTime } from '../clock';
import type { ContentRoute, RouteContext } from './types';
import {
  SandboxApiError,
  checkName,
  checkPreconditions,
  decodeToken,
  encodeToken,
  feedExpired,
  invalidRequest,
  notFound,
  parseLimit,
  sendContent,
  sendJson,
  uploadType,
} from './http';
import type { AccountTree, FileNode, FolderNode } from './tree';
import { beginWalk, sha256Of, walkChanges } from './tree';

const IDEMPOTENCY_MS = 24 * 3600_000;

const mattersPage = z.strictObject({ k: z.literal('matters'), a: z.string() });
const documentsPage = z.strictObject({ k: z.literal('documents'), m: z.string(), a: z.string() });
const deltaPage = z.strictObject({
  k: z.literal('delta'),
  m: z.string(),
  s: z.number().int().nonnegative().nullable(),
  a: z.number().int().nonnegative(),
  w: z.number().int().nonnegative(),
});
const syncToken = z.strictObject({ k: z.literal('sync'), m: z.string(), s: z.number().int().nonnegative() });

const doc = (file: FileNode) => ({
  id: file.id,
  name: file.name,
  content_type: file.contentType,
  size: file.content.size,
  version: file.version,
  updated_at: isoTime(file.updatedAt),
});

type Doc = ReturnType<typeof doc>;

function matterOf(tree: AccountTree, id: string): FolderNode {
  const matter = tree.folder(id);
  if (!matter || matter.parent !== tree.root) throw notFound('no such matter');
  return matter;
}

function listMatters({ tree, query, response }: RouteContext) {
  const limit = parseLimit(query);
  const token = query.get('page_token');
  const after = token ? decodeToken(token, mattersPage, 'page_token').a : '';
  const { items, more } = tree.children(tree.root, after, limit);
  sendJson(response, 200, {
    data: items.map((m) => ({ id: m.id, name: m.name, updated_at: isoTime(m.updatedAt) })),
    next_page_token: more ? encodeToken({ k: 'matters', a: items.at(-1)!.id }) : null,
  });
}

function listDocuments({ tree, params, query, response }: RouteContext) {
  const matter = matterOf(tree, params.matter_id!);
  const limit = parseLimit(query);
  const name = query.get('name');
  if (name !== null) {
    // `name=`: the document of exactly that name, if any (what an upload checks first).
    const found = matter.byName.get(checkName(name));
    return sendJson(response, 200, {
      data: found?.type === 'file' ? [doc(found)] : [],
      next_page_token: null,
    });
  }
  const token = query.get('page_token');
  const page = token ? decodeToken(token, documentsPage, 'page_token') : undefined;
  if (page && page.m !== matter.id) throw invalidRequest('page_token belongs to another matter');
  const { items, more } = tree.children(matter, page?.a ?? '', limit);
  sendJson(response, 200, {
    data: items.map((item) => doc(item as FileNode)),
    next_page_token: more ? encodeToken({ k: 'documents', m: matter.id, a: items.at(-1)!.id }) : null,
  });
}

function delta({ tree, params, query, response }: RouteContext) {
  const matter = matterOf(tree, params.matter_id!);
  const limit = parseLimit(query);
  const token = query.get('page_token');
  const since = query.get('since');
  let state;
  if (token) {
    const page = decodeToken(token, deltaPage, 'page_token');
    if (page.m !== matter.id) throw invalidRequest('page_token belongs to another matter');
    if (page.w < tree.feedResetAt) throw feedExpired('page_token');
    state = { since: page.s, after: page.a, start: page.w };
  } else if (since) {
    const synced = decodeToken(since, syncToken, 'since');
    if (synced.m !== matter.id) throw invalidRequest('since is a sync token of another matter');
    if (synced.s > tree.changeSequence) throw invalidRequest('since is not one this provider issued');
    if (synced.s < tree.feedResetAt) throw feedExpired('since');
    state = beginWalk(tree, synced.s);
  } else {
    state = beginWalk(tree, null);
  }
  const page = walkChanges(tree, (file) => file.parent === matter, state, limit);
  sendJson(response, 200, {
    data: page.files.map((file) => ({ ...doc(file), deleted: file.deleted })),
    next_page_token: page.next
      ? encodeToken({ k: 'delta', m: matter.id, s: page.next.since, a: page.next.after, w: page.next.start })
      : null,
    sync_token: page.next ? null : encodeToken({ k: 'sync', m: matter.id, s: page.syncedTo }),
  });
}

async function download({ tree, params, request, response, stallMs }: RouteContext) {
  const file = tree.file(params.id!);
  if (!file) throw notFound('no such document');
  await sendContent(request, response, file, stallMs);
}

interface Replay {
  request: string;
  doc: Doc;
  expiresAt: number;
}

/** Uploads keyed by (account, Idempotency-Key) for 24 hours: a retry gets the first answer. */
function upload(replays: Map<string, Replay>) {
  return async ({ tree, params, query, request, response, now, upload: read }: RouteContext) => {
    const matter = matterOf(tree, params.matter_id!);
    const name = checkName(query.get('name'));
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || !/^[\x20-\x7e]{1,255}$/.test(key))
      throw invalidRequest('Idempotency-Key is required: 1-255 printable ASCII characters');
    const contentType = uploadType(request);
    const body = await read();
    const described = JSON.stringify([matter.id, name, contentType, body.sha256]);
    const slot = `${tree.accountId}\u0000${key}`;
    const earlier = replays.get(slot);
    if (earlier && earlier.expiresAt > now) {
      if (earlier.request !== described)
        throw new SandboxApiError(422, 'idempotency_key_reused', 'this key was used for another upload');
      return sendJson(response, 200, earlier.doc);
    }
    const content = { kind: 'bytes' as const, chunks: body.chunks, size: body.size };
    const existing = matter.byName.get(name);
    checkPreconditions(
      request,
      existing?.type === 'file' ? existing : undefined,
      existing?.type === 'file' && existing.contentType === contentType && sha256Of(existing) === body.sha256,
    );
    const { file } = tree.putFile(matter, name, { contentType, content, sha256: body.sha256 });
    const answer = doc(file);
    replays.set(slot, { request: described, doc: answer, expiresAt: now + IDEMPOTENCY_MS });
    sendJson(response, 201, answer);
  };
}

export function practiceRoutes(): ContentRoute[] {
  const replays = new Map<string, Replay>();
  return [
    { method: 'GET', path: '/matters', scope: 'matters.read', handle: listMatters },
    { method: 'GET', path: '/matters/{matter_id}/documents', scope: 'documents.read', handle: listDocuments },
    {
      method: 'POST',
      path: '/matters/{matter_id}/documents',
      scope: 'documents.write',
      handle: upload(replays),
    },
    { method: 'GET', path: '/matters/{matter_id}/documents/delta', scope: 'documents.read', handle: delta },
    { method: 'GET', path: '/documents/{id}/content', scope: 'documents.read', handle: download },
  ];
}
