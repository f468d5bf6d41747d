// Page tokens a client makes of its own position (a pass's state the provider's token alone does not
// carry): JSON in base64url, read back through a schema. A token comes back to us from storage or a
// caller, so one that does not decode to the schema is a clear refusal (400 invalid_page_token), never
// a crash on a missing field.
import type * as z from 'zod/mini';
import { ProviderApiError } from './http';

export interface PageTokenCodec<T> {
  encode(value: T): string;
  /** The position the token holds; ProviderApiError 400 `invalid_page_token` when it holds none. */
  decode(token: string, operation: string): T;
}

export function pageTokenCodec<T>(schema: z.ZodMiniType<T>): PageTokenCodec<T> {
  return {
    encode: (value) => Buffer.from(JSON.stringify(value)).toString('base64url'),
    decode: (token, operation) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
      } catch {
        parsed = undefined;
      }
      const result = schema.safeParse(parsed);
      if (!result.success)
        throw new ProviderApiError(operation, 400, undefined, undefined, 'invalid_page_token');
      return result.data;
    },
  };
}
