// Test hooks of the sandbox's content APIs, served only with the sandbox's test-hook switch (as
// /__sandbox/issued is; LOCAL_TEST_HOOKS=1 under `npm start`). A tree is addressed by provider and
// account id (the id typed on the consent page, default acct-1001):
//   POST   /__sandbox/next-api-error {provider, status: 401|403|429|500|503, reason?, retry_after?, count?}
//          the next `count` (default 1) content-API requests of that provider answer that status
//          (429 and 503 with Retry-After when given; 401 as an invalid token; a fake answers in its
//          provider's error format, `reason` its own throttling reason, e.g. 403 userRateLimitExceeded)
//   POST   /__sandbox/stall-downloads {provider, ms <= 60000}: every download of that provider pauses `ms`
//          after its first chunk, until set to 0 (a transfer in flight while a test acts)
//   POST   /__sandbox/revoke-grants {provider, account_id?} -> {revoked: <grants>}: as when the user
//          removes the app at the provider: API calls 401, refresh answers invalid_grant
//   POST   /__sandbox/files {provider, account_id, container_id, name, content? (utf8) | size? (bytes,
//          generated as read), content_type?} -> 201 {id, version} (new) | 200 (next version of that name)
//   DELETE /__sandbox/files/{provider}/{account_id}/{id} -> 204 (the deletion shows in the feeds)
//   POST   /__sandbox/restore {provider, account_id, file_id, reported?} -> {id, version}: a deleted file
//          back under its id, as its provider reports a restore: the fakes (Drive's untrash, Graph's
//          restore, Dropbox's restore, Clio's) as a change the feeds list; the sandbox's practice and
//          drive at the version it had, recorded as no change, so only a pass from the start (a full
//          or reconciling run) lists it. `reported` overrides; 409 when its name is taken or its folder deleted
//   POST   /__sandbox/delete-folder {provider, account_id, folder_id} -> 204: a folder (not the top) and
//          everything in it; each feed reports it as its provider does (Dropbox: the folder alone)
//   POST   /__sandbox/move-folder {provider, account_id, folder_id, container_id, name?} -> 204: moves (and
//          may rename) a folder (not the top) with everything in it into another folder, as a user would
//          at the provider; each feed reports it as its provider does (Graph: each file with its new
//          parent; Dropbox: the folder's old path deleted, its files at the new path; Drive: the folder
//          whose parents changed, not its files; the sandbox's drive: the files now under the folder
//          watched). Drive-shaped trees only (a matter holds no folders); 409 when the name is taken
//          there, 400 into itself
//   POST   /__sandbox/restore-folder {provider, account_id, folder_id} -> 204: a deleted folder back with
//          the files deleted with it (each a change the feeds list); 409 when its name is taken, or
//          (Box) when the folder it was in is deleted
//   POST   /__sandbox/reset-feed {provider, account_id} -> 204: every feed position handed out so far is
//          refused as the provider refuses one it no longer honours (Graph 410 resyncRequired, Dropbox
//          `reset`, Drive 400 on the page token, the sandbox APIs 410); Clio has no feed to reset (its
//          client starts over when its cursor is older than Clio's 30-day trash: move the clock)
//   POST   /__sandbox/move {provider, account_id, file_id, container_id, name?} -> {id, version}: moves
//          (and may rename) a file, as a user would at the provider (the feeds show it)
//   POST   /__sandbox/seed {provider, account_id, container_id, count <= 100000, size?} -> {created}:
//          `count` small files seed-000001.txt... (numbering goes on across calls)
//   GET    /__sandbox/files?provider&account_id&container_id? -> {files: [{id, name, container_id,
//          path, version, size, content_type, sha256, updated_at}]}: what is there now, in change order
// container_id is a matter id (practice-shaped) or a folder id, `root` the top (drive-shaped);
// `provider` is the sandbox's `practice` or `drive` or a fake's id (sandbox/providers/<id>/). Ids (of
// containers and files, given and answered) are the provider's own where its fake declares them (Clio's
// integers, Dropbox's `id:` folders and lower-cased file paths), else the tree's.
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod';
import { isoTime } from '../clock';
import type { ContentState } from './types';
import { SandboxApiError, checkName, invalidRequest, notFound, readJson, sendJson } from './http';
import type { AccountTree, FileContent, FileNode, FolderNode, TreeNode } from './tree';
import { FolderGoneError, NameTakenError, isWithin, pathOf, sha256Of, textContent } from './tree';

/** Checked against the providers the sandbox serves when a hook runs (ContentState.providers). */
const provider = z.string().min(1).max(64);
const accountId = z.string().min(1).max(128);
const size = z
  .number()
  .int()
  .nonnegative()
  .max(2 ** 40);

const nextApiError = z.strictObject({
  provider,
  status: z.union([z.literal(401), z.literal(403), z.literal(429), z.literal(500), z.literal(503)]),
  reason: z
    .string()
    .regex(/^[A-Za-z_]{1,64}$/)
    .optional(),
  retry_after: z.number().int().nonnegative().max(86_400).optional(),
  count: z.number().int().positive().max(10_000).optional(),
});
const revokeGrants = z.strictObject({ provider, account_id: accountId.optional() });
const putFile = z
  .strictObject({
    provider,
    account_id: accountId,
    container_id: z.string().min(1),
    name: z.string(),
    content: z.string().optional(),
    size: size.optional(),
    content_type: z.string().min(3).max(255).optional(),
  })
  .refine((input) => input.content === undefined || input.size === undefined, {
    message: 'give content or size, not both',
  });
const move = z.strictObject({
  provider,
  account_id: accountId,
  file_id: z.string().min(1),
  container_id: z.string().min(1),
  name: z.string().optional(),
});
const seed = z.strictObject({
  provider,
  account_id: accountId,
  container_id: z.string().min(1),
  count: z.number().int().positive().max(100_000),
  size: size.optional(),
});

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const checked = schema.safeParse(input);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw invalidRequest(`${issue?.path.join('.') || 'body'}: ${issue?.message}`);
  }
  return checked.data;
}

/** A provider the sandbox serves, or a 400 naming those it does. */
function known(state: ContentState, id: string): string {
  if (!state.providers.includes(id))
    throw invalidRequest(`provider: must be one of ${state.providers.join(', ')}`);
  return id;
}

/** The tree id a provider's own id names (a fake's ids: Clio's integers, Dropbox's paths). */
function treeIdOf(state: ContentState, provider: string, tree: AccountTree, id: string): string {
  return state.idsOf(provider)?.treeId(tree, id) ?? id;
}

/** The provider's own id of a node (the tree's id where the provider uses it). */
function providerIdOf(state: ContentState, provider: string, tree: AccountTree, node: TreeNode): string {
  return state.idsOf(provider)?.providerId(tree, node) ?? node.id;
}

/** Where files go: a matter (practice) or any folder (drive), named as its provider names it. */
function containerOf(state: ContentState, provider: string, tree: AccountTree, id: string): FolderNode {
  const folder = tree.folder(treeIdOf(state, provider, tree, id));
  if (!folder || (tree.shape === 'practice' && folder.parent !== tree.root))
    throw notFound('no such container');
  return folder;
}

function decodeSegments(path: string): string[] {
  try {
    return path.split('/').map(decodeURIComponent);
  } catch {
    throw invalidRequest('the path is not percent-encoded UTF-8');
  }
}

const generatedOrText = (text: string, bytes: number | undefined): FileContent =>
  bytes === undefined ? textContent(text) : { kind: 'generated', size: bytes };

type Hook = (
  state: ContentState,
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
) => unknown;

const injectErrors: Hook = async (state, request, response) => {
  const input = parse(nextApiError, await readJson(request));
  const count = input.count ?? 1;
  if (input.status === 403 && !input.reason) throw invalidRequest('a 403 needs the reason it is given for');
  state.injected.set(known(state, input.provider), {
    status: input.status,
    reason: input.reason,
    retryAfter: input.retry_after,
    remaining: count,
  });
  sendJson(response, 200, { provider: input.provider, status: input.status, count });
};

const revoke: Hook = async (state, request, response) => {
  const input = parse(revokeGrants, await readJson(request));
  const revoked = state.grants.revokeGrants(known(state, input.provider), input.account_id);
  sendJson(response, 200, { revoked });
};

const moveFile: Hook = async (state, request, response) => {
  const input = parse(move, await readJson(request));
  const tree = state.store.tree(known(state, input.provider), input.account_id);
  const file = tree.file(treeIdOf(state, input.provider, tree, input.file_id));
  if (!file) throw notFound('no such file');
  const target = containerOf(state, input.provider, tree, input.container_id);
  const name = checkName(input.name ?? file.name);
  if (target.byName.has(name) && target.byName.get(name) !== file)
    throw new SandboxApiError(409, 'conflict', 'the target folder has that name');
  tree.moveFile(file, target, name);
  sendJson(response, 200, { id: providerIdOf(state, input.provider, tree, file), version: file.version });
};

const writeFile: Hook = async (state, request, response) => {
  const input = parse(putFile, await readJson(request));
  const tree = state.store.tree(known(state, input.provider), input.account_id);
  const container = containerOf(state, input.provider, tree, input.container_id);
  const contentType =
    input.content_type ?? (input.size === undefined ? 'text/plain' : 'application/octet-stream');
  const content = generatedOrText(input.content ?? '', input.size);
  const name = checkName(input.name);
  if (container.byName.get(name)?.type === 'folder')
    throw new SandboxApiError(409, 'conflict', 'a folder has that name');
  const { file, outcome } = tree.putFile(container, name, { contentType, content });
  sendJson(response, outcome === 'created' ? 201 : 200, {
    id: providerIdOf(state, input.provider, tree, file),
    version: file.version,
  });
};

const restore = z.strictObject({
  provider,
  account_id: accountId,
  file_id: z.string().min(1),
  reported: z.boolean().optional(),
});
/** The sandbox's own APIs, whose feeds do not report a restore (a fake's provider does). */
const UNREPORTED_RESTORES = new Set(['practice', 'drive']);

/**
 * Providers that restore a file or folder only into its folder while that is there (Box: else the
 * restore names another parent), so one whose folder was deleted after it is refused.
 */
const RESTORES_INTO_LIVE_FOLDERS = new Set(['box']);

const restoreFile: Hook = async (state, request, response) => {
  const input = parse(restore, await readJson(request));
  const tree = state.store.tree(known(state, input.provider), input.account_id);
  const deleted = tree.deletedFile(treeIdOf(state, input.provider, tree, input.file_id));
  if (deleted && RESTORES_INTO_LIVE_FOLDERS.has(input.provider) && !tree.isLive(deleted.parent))
    throw new SandboxApiError(409, 'conflict', 'its folder is deleted');
  let file: FileNode | undefined;
  try {
    file = tree.restoreFile(treeIdOf(state, input.provider, tree, input.file_id), {
      asChange: input.reported ?? !UNREPORTED_RESTORES.has(input.provider),
    });
  } catch (error) {
    if (error instanceof NameTakenError) throw new SandboxApiError(409, 'conflict', 'its name is taken');
    if (error instanceof FolderGoneError)
      throw new SandboxApiError(409, 'conflict', 'its folder is deleted (restore the folder)');
    throw error;
  }
  if (!file) throw notFound('no such deleted file');
  sendJson(response, 200, { id: providerIdOf(state, input.provider, tree, file), version: file.version });
};

const folderInput = z.strictObject({ provider, account_id: accountId, folder_id: z.string().min(1) });

const deleteFolder: Hook = async (state, request, response) => {
  const input = parse(folderInput, await readJson(request));
  const tree = state.store.tree(known(state, input.provider), input.account_id);
  const folder = tree.folder(treeIdOf(state, input.provider, tree, input.folder_id));
  if (!folder?.parent) throw notFound('no such folder (the top cannot be deleted)');
  tree.deleteFolder(folder);
  response.writeHead(204).end();
};

const moveFolderInput = z.strictObject({
  provider,
  account_id: accountId,
  folder_id: z.string().min(1),
  container_id: z.string().min(1),
  name: z.string().optional(),
});

const moveFolder: Hook = async (state, request, response) => {
  const input = parse(moveFolderInput, await readJson(request));
  const tree = state.store.tree(known(state, input.provider), input.account_id);
  if (tree.shape === 'practice') throw invalidRequest('provider: its matters hold no folders to move');
  const folder = tree.folder(treeIdOf(state, input.provider, tree, input.folder_id));
  if (!folder?.parent) throw notFound('no such folder (the top cannot be moved)');
  const target = containerOf(state, input.provider, tree, input.container_id);
  if (isWithin(target, folder)) throw invalidRequest('container_id: a folder cannot be moved into itself');
  const name = checkName(input.name ?? folder.name);
  if (target.byName.has(name) && target.byName.get(name) !== folder)
    throw new SandboxApiError(409, 'conflict', 'the target folder has that name');
  tree.moveFolder(folder, target, name);
  response.writeHead(204).end();
};

const restoreFolder: Hook = async (state, request, response) => {
  const input = parse(folderInput, await readJson(request));
  const tree = state.store.tree(known(state, input.provider), input.account_id);
  const deleted = tree.deletedFolder(treeIdOf(state, input.provider, tree, input.folder_id));
  if (deleted?.parent && RESTORES_INTO_LIVE_FOLDERS.has(input.provider) && !tree.isLive(deleted.parent))
    throw new SandboxApiError(409, 'conflict', 'its folder is deleted');
  try {
    if (!tree.restoreFolder(treeIdOf(state, input.provider, tree, input.folder_id)))
      throw notFound('no such deleted folder');
  } catch (error) {
    if (error instanceof NameTakenError) throw new SandboxApiError(409, 'conflict', 'its name is taken');
    throw error;
  }
  response.writeHead(204).end();
};

const feedInput = z.strictObject({ provider, account_id: accountId });

const resetFeed: Hook = async (state, request, response) => {
  const input = parse(feedInput, await readJson(request));
  if (input.provider === 'clio')
    throw invalidRequest(
      "Clio has no feed to reset: its client starts over when its cursor is older than Clio's 30-day trash (move the clock)",
    );
  state.store.tree(known(state, input.provider), input.account_id).resetFeeds();
  response.writeHead(204).end();
};

const deleteFile: Hook = (state, _request, response, path) => {
  const [shape, account, id] = decodeSegments(path.slice('/__sandbox/files/'.length));
  const tree = state.store.tree(known(state, parse(provider, shape)), parse(accountId, account));
  const file = tree.file(treeIdOf(state, shape!, tree, id ?? ''));
  if (!file) throw notFound('no such file');
  tree.deleteFile(file);
  response.writeHead(204).end();
};

/** seed-000001.txt, seed-000002.txt...: the numbering of a tree goes on across calls. */
function seedFiles(seeded: Map<AccountTree, number>): Hook {
  return async (state, request, response) => {
    const input = parse(seed, await readJson(request));
    const tree = state.store.tree(known(state, input.provider), input.account_id);
    const container = containerOf(state, input.provider, tree, input.container_id);
    let n = seeded.get(tree) ?? 0;
    const contentType = input.size === undefined ? 'text/plain' : 'application/octet-stream';
    for (let i = 0; i < input.count; i++) {
      const name = `seed-${String(++n).padStart(6, '0')}.txt`;
      const text = `Seed file ${n} of ${input.account_id}\n`;
      tree.putFile(container, name, { contentType, content: generatedOrText(text, input.size) });
    }
    seeded.set(tree, n);
    sendJson(response, 201, { created: input.count });
  };
}

const listFiles: Hook = (state, request, response) => {
  const query = new URL(request.url ?? '/', 'http://sandbox').searchParams;
  const id = known(state, parse(provider, query.get('provider')));
  const tree = state.store.tree(id, parse(accountId, query.get('account_id')));
  const container = query.get('container_id');
  const within = container ? containerOf(state, id, tree, container) : undefined;
  const files = tree.liveFiles(within).map((file) => ({
    id: providerIdOf(state, id, tree, file),
    name: file.name,
    container_id: providerIdOf(state, id, tree, file.parent),
    path: pathOf(file),
    version: file.version,
    size: file.content.size,
    content_type: file.contentType,
    sha256: sha256Of(file),
    updated_at: isoTime(file.updatedAt),
  }));
  sendJson(response, 200, { files });
};

const stallDownloads = z.strictObject({ provider, ms: z.number().int().nonnegative().max(60_000) });

const stallAll: Hook = async (state, request, response) => {
  const input = parse(stallDownloads, await readJson(request));
  if (input.ms === 0) state.downloadStallMs.delete(known(state, input.provider));
  else state.downloadStallMs.set(known(state, input.provider), input.ms);
  sendJson(response, 200, { provider: input.provider, ms: input.ms });
};

const FILE_PREFIX = '/__sandbox/files/';

export function contentHooks(state: ContentState) {
  const hooks: Record<string, Hook> = {
    'POST /__sandbox/next-api-error': injectErrors,
    'POST /__sandbox/stall-downloads': stallAll,
    'POST /__sandbox/revoke-grants': revoke,
    'POST /__sandbox/files': writeFile,
    'POST /__sandbox/restore': restoreFile,
    'POST /__sandbox/move': moveFile,
    'POST /__sandbox/delete-folder': deleteFolder,
    'POST /__sandbox/reset-feed': resetFeed,
    'POST /__sandbox/restore-folder': restoreFolder,
    'POST /__sandbox/move-folder': moveFolder,
    [`DELETE ${FILE_PREFIX}`]: deleteFile,
    'POST /__sandbox/seed': seedFiles(new Map()),
    'GET /__sandbox/files': listFiles,
  };
  const paths = new Set(Object.keys(hooks).map((key) => key.split(' ')[1]!));
  const owns = (path: string) => paths.has(path) || path.startsWith(FILE_PREFIX);

  return {
    owns,
    async handle(path: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
      const hook = hooks[`${request.method} ${path.startsWith(FILE_PREFIX) ? FILE_PREFIX : path}`];
      if (!hook) throw new SandboxApiError(405, 'method_not_allowed');
      await hook(state, request, response, path);
    },
  };
}
