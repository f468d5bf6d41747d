// The file-storage shape of the sandbox's content API (routes documented in ./mount.ts):
// folder listings with cursors, a recursive change feed, downloads, and uploads by name that are
// idempotent (the same bytes again keep the version).
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
import type { AccountTree, FileNode, FolderNode, TreeNode } from './tree';
import { NameTakenError, beginWalk, isWithin, pathOf, sha256Of, walkChanges } from './tree';

const childrenCursor = z.strictObject({ k: z.literal('children'), f: z.string(), a: z.string() });
const changesCursor = z.strictObject({
  k: z.literal('changes'),
  f: z.string(),
  s: z.number().int().nonnegative().nullable(),
  a: z.number().int().nonnegative(),
  w: z.number().int().nonnegative(),
});

const fileEntry = (file: FileNode) => ({
  id: file.id,
  name: file.name,
  type: 'file' as const,
  size: file.content.size,
  version: file.version,
  mime_type: file.contentType,
  modified_at: isoTime(file.updatedAt),
});

const entry = (node: TreeNode) =>
  node.type === 'file'
    ? fileEntry(node)
    : { id: node.id, name: node.name, type: 'folder' as const, modified_at: isoTime(node.updatedAt) };

function folderOf(tree: AccountTree, id: string): FolderNode {
  const folder = tree.folder(id);
  if (!folder) throw notFound('no such folder');
  return folder;
}

function children({ tree, params, query, response }: RouteContext) {
  const folder = folderOf(tree, params.folder_id!);
  const limit = parseLimit(query);
  const name = query.get('name');
  if (name !== null) {
    // `name=`: the child of exactly that name, if any (what an upload checks first).
    const found = folder.byName.get(checkName(name));
    return sendJson(response, 200, { entries: found ? [entry(found)] : [], cursor: null, has_more: false });
  }
  const raw = query.get('cursor');
  const cursor = raw ? decodeToken(raw, childrenCursor, 'cursor') : undefined;
  if (cursor && cursor.f !== folder.id) throw invalidRequest('cursor belongs to another folder');
  const { items, more } = tree.children(folder, cursor?.a ?? '', limit);
  sendJson(response, 200, {
    entries: items.map(entry),
    cursor: more ? encodeToken({ k: 'children', f: folder.id, a: items.at(-1)!.id }) : null,
    has_more: more,
  });
}

function changes({ tree, params, query, response }: RouteContext) {
  const folder = folderOf(tree, params.folder_id!);
  const limit = parseLimit(query);
  const raw = query.get('cursor');
  let state = beginWalk(tree, null);
  if (raw) {
    const cursor = decodeToken(raw, changesCursor, 'cursor');
    if (cursor.f !== folder.id) throw invalidRequest('cursor belongs to another folder');
    if (cursor.a > tree.changeSequence) throw invalidRequest('cursor is not one this provider issued');
    if (cursor.w < tree.feedResetAt) throw feedExpired('cursor');
    state = { since: cursor.s, after: cursor.a, start: cursor.w };
  }
  const page = walkChanges(tree, (file) => isWithin(file, folder), state, limit);
  // Once everything is reported the cursor to keep is a fresh walk "since now".
  const next = page.next ?? { since: page.syncedTo!, after: page.syncedTo!, start: page.syncedTo! };
  sendJson(response, 200, {
    entries: page.files.map((file) => ({
      ...fileEntry(file),
      path: pathOf(file),
      ...(file.deleted ? { deleted: true } : {}),
    })),
    cursor: encodeToken({ k: 'changes', f: folder.id, s: next.since, a: next.after, w: next.start }),
    has_more: Boolean(page.next),
  });
}

async function download({ tree, params, request, response, stallMs }: RouteContext) {
  const file = tree.file(params.id!);
  if (!file) throw notFound('no such file');
  await sendContent(request, response, file, stallMs);
}

async function put({ tree, params, request, response, upload }: RouteContext) {
  const folder = folderOf(tree, params.folder_id!);
  const name = checkName(params.name!);
  const contentType = uploadType(request);
  const body = await upload();
  const content = { kind: 'bytes' as const, chunks: body.chunks, size: body.size };
  const existing = folder.byName.get(name);
  if (existing?.type === 'folder') throw new SandboxApiError(409, 'conflict', 'a folder has that name');
  checkPreconditions(
    request,
    existing,
    existing !== undefined && existing.contentType === contentType && sha256Of(existing) === body.sha256,
  );
  try {
    const { file, outcome } = tree.putFile(
      folder,
      name,
      { contentType, content, sha256: body.sha256 },
      { keepIdentical: true },
    );
    sendJson(response, outcome === 'created' ? 201 : 200, fileEntry(file));
  } catch (error) {
    if (error instanceof NameTakenError) throw new SandboxApiError(409, 'conflict', 'a folder has that name');
    throw error;
  }
}

export function driveRoutes(): ContentRoute[] {
  return [
    { method: 'GET', path: '/folders/{folder_id}/children', scope: 'files.read', handle: children },
    { method: 'GET', path: '/folders/{folder_id}/changes', scope: 'files.read', handle: changes },
    { method: 'GET', path: '/files/{id}/content', scope: 'files.read', handle: download },
    { method: 'PUT', path: '/folders/{folder_id}/files/{name}', scope: 'files.write', handle: put },
  ];
}
