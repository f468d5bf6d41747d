// Page tokens the clients make of their own positions (infra/content/page-token.ts): what comes back
// is read through a schema, so a tampered or garbage token is a 400 invalid_page_token before any
// request, never a crash (Google Drive's walk once took a token's fields on trust).
import * as fc from 'fast-check';
import * as z from 'zod/mini';
import { ProviderApiError } from '../../functions/connectors/infra/content/http';
import { pageTokenCodec } from '../../functions/connectors/infra/content/page-token';
import { ClioApi } from '../../functions/connectors/providers/clio/client';
import { GoogleDriveApi } from '../../functions/connectors/providers/google_drive/client';

const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
// Nothing listens there: a token that got past the codec would end in a network error instead.
const settings = { apiUrl: 'http://127.0.0.1:9' };

describe('page tokens', () => {
  const codec = pageTokenCodec(z.object({ t: z.string(), n: z.optional(z.number()) }));

  it('round-trips what it encodes', () => {
    fc.assert(
      fc.property(fc.string(), fc.option(fc.integer(), { nil: undefined }), (t, n) => {
        const value = n === undefined ? { t } : { t, n };
        expect(codec.decode(codec.encode(value), 'op')).toEqual(value);
      }),
    );
  });

  it('refuses any token that does not hold the schema with invalid_page_token, whatever its bytes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json().map((j) => Buffer.from(j).toString('base64url')),
        ),
        (raw) => {
          try {
            const value = codec.decode(raw, 'op');
            expect(typeof value.t).toBe('string');
          } catch (error) {
            expect(error).toBeInstanceOf(ProviderApiError);
            expect(error).toMatchObject({
              status: 400,
              providerError: 'invalid_page_token',
              operation: 'op',
            });
          }
        },
      ),
      { seed: 4040, numRuns: 500 },
    );
  });

  it.each([
    ['not base64 JSON', 'garbage!'],
    ['a walk with no folder left', encoded({ walk: { start: '1', queue: [] } })],
    ['a walk whose start is not a token', encoded({ walk: { start: 1, queue: ['root'] } })],
    ['neither a walk nor a feed', encoded({ somewhere: 'else' })],
  ])('Google Drive refuses a page token that is %s, before any request', async (_what, page) => {
    const api = new GoogleDriveApi(settings);
    await expect(api.changes('token', 'root', { page }, 10)).rejects.toMatchObject({
      status: 400,
      providerError: 'invalid_page_token',
      operation: 'list changes',
    });
  });

  it.each([
    ['not base64 JSON', '%%%'],
    ['without its page token', encoded({ b: '2026-01-01T00:00:00Z' })],
    ['with a number for a date', encoded({ t: 'x', b: 5 })],
  ])('Clio refuses a page token that is %s, before any request', async (_what, page) => {
    const api = new ClioApi(settings);
    await expect(api.changes('token', '12', { page }, 10)).rejects.toMatchObject({
      status: 400,
      providerError: 'invalid_page_token',
    });
  });
});
