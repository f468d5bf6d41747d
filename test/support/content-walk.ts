// What the provider contract tests do with a production content-API client: walk a changes pass to its
// end, read a download, describe an upload.
import { Readable } from 'node:stream';
import type { ChangedFile, ContentApi, Upload } from '../../functions/connectors/infra/content/api';

/** Every file a changes pass reports, and the cursor it ends with. */
export async function changesPass(
  api: ContentApi,
  token: string,
  container: string,
  cursor: string | undefined,
  limit = 2,
): Promise<{ files: ChangedFile[]; cursor: string }> {
  const files: ChangedFile[] = [];
  let page = await api.changes(token, container, { cursor }, limit);
  files.push(...page.files);
  while ('page' in page.next) {
    page = await api.changes(token, container, { page: page.next.page }, limit);
    files.push(...page.files);
  }
  return { files, cursor: page.next.cursor };
}

export async function drain(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export const uploadOf = (name: string, bytes: Buffer, key: string): Upload => ({
  name,
  contentType: 'application/pdf',
  size: bytes.length,
  body: Readable.from([bytes]),
  idempotencyKey: key,
});
