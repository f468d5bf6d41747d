// What the clients share in reading a provider's answers: a download's stream and headers, and the
// sandbox APIs' 410 for a feed position older than their last reset.
import type { Download } from './api';
import { FeedRestartError } from './api';
import { ProviderApiError, streamBody } from './http';

/** The sandbox APIs answer 410 to a sync token or cursor older than their feed's last reset. */
export const refusedFeed =
  (operation: string) =>
  (error: unknown): never => {
    if (error instanceof ProviderApiError && error.status === 410)
      throw new FeedRestartError(operation, error.providerError ?? 'gone');
    throw error;
  };

/** A download's stream and what its headers say (ETag carries the version on both providers). */
export function downloadOf(operation: string, response: Response): Download {
  const length = Number(response.headers.get('content-length'));
  const etag = response.headers.get('etag')?.replace(/^W\//, '').replace(/"/g, '');
  return {
    body: streamBody(operation, response),
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    ...(Number.isFinite(length) && length >= 0 && response.headers.has('content-length')
      ? { size: length }
      : {}),
    ...(etag ? { version: etag } : {}),
  };
}
