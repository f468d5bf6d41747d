// BlobStore on S3: content streams up as a multipart upload (lib-storage), so a large file is never held
// whole in memory: at most PART_BYTES x QUEUE_SIZE are buffered at once.
import type { S3Client } from './sdk/s3';
import type { Readable } from 'node:stream';
import type { BlobStore } from '../../platform/ports';
import { Digest } from '../../platform/digest';
import type { ClientRef } from './clients';

/** S3's minimum part size is 5 MiB; 8 MiB parts keep the part count low for files up to 80 GB. */
export const PART_BYTES = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

const commands = () => import('./sdk/s3');

/**
 * GetObject answered AccessDenied (403). Without s3:ListBucket, S3 answers a missing key that way
 * instead of NoSuchKey (404); the functions that read the vault have ListBucket on its bucket
 * (lib/service-function.ts), so a 403 is a real permission problem and is not read as "no content".
 */
export class BlobAccessDeniedError extends Error {
  override readonly name = 'BlobAccessDeniedError';
  constructor(bucket: string) {
    super(
      `S3 refused GetObject in bucket ${bucket} (AccessDenied): the function needs s3:GetObject on its ` +
        'objects and s3:ListBucket on the bucket (without ListBucket S3 answers a missing key with 403)',
    );
  }
}

export class S3BlobStore implements BlobStore {
  /** @param bucket its name, or how to read it at first use (an environment variable). */
  constructor(
    private readonly bucket: string | (() => string),
    private readonly client: ClientRef<S3Client>,
  ) {}

  get name(): string {
    return typeof this.bucket === 'string' ? this.bucket : this.bucket();
  }

  async put(key: string, content: Readable, contentType: string): Promise<{ size: number; sha256: string }> {
    const [client, { Upload }] = await Promise.all([this.client, import('./sdk/s3-upload')]);
    const digest = new Digest();
    const body = content.pipe(digest);
    content.once('error', (error) => digest.destroy(error));
    await new Upload({
      client,
      params: { Bucket: this.name, Key: key, Body: body, ContentType: contentType },
      partSize: PART_BYTES,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    }).done();
    return { size: digest.bytes, sha256: digest.sha256 };
  }

  async get(key: string): Promise<Readable | undefined> {
    const [client, { GetObjectCommand, NoSuchKey }] = await Promise.all([this.client, commands()]);
    try {
      const out = await client.send(new GetObjectCommand({ Bucket: this.name, Key: key }));
      return out.Body as Readable;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 403)
        throw new BlobAccessDeniedError(this.name);
      throw error;
    }
  }

  /** DeleteObject on a missing key succeeds. */
  async delete(key: string): Promise<void> {
    const [client, { DeleteObjectCommand }] = await Promise.all([this.client, commands()]);
    await client.send(new DeleteObjectCommand({ Bucket: this.name, Key: key }));
  }
}
