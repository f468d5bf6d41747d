// The Box client's own rules, property-based: its page tokens and cursors read back exactly what they
// wrote and nothing else, and a chunk of the events stream, whatever its order, reports each file once
// with the verdict of its last event (the stream is at-least-once and user-wide).
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as fc from 'fast-check';
import { FeedRestartError } from '../../functions/connectors/infra/content/api';
import { BoxApi, boxPositions } from '../../functions/connectors/providers/box/client';

const digits = fc.stringMatching(/^\d{1,20}$/);
const position = fc.oneof(
  fc.record({ k: fc.constant('events' as const), p: digits }),
  fc.record(
    {
      k: fc.constant('walk' as const),
      q: fc.array(digits, { minLength: 1, maxLength: 20 }),
      m: fc.stringMatching(/^[\w.~=+/-]{1,64}$/),
      s: digits,
    },
    { requiredKeys: ['k', 'q', 's'] },
  ),
);

describe('Box positions', () => {
  it('read back exactly what they wrote', () => {
    fc.assert(fc.property(position, (p) => expect(boxPositions.decode(boxPositions.encode(p))).toEqual(p)));
  });

  it('read nothing else: any other text is no position, and never throws', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.base64String(),
          fc.json().map((j) => Buffer.from(j).toString('base64url')),
        ),
        (raw) => {
          const read = boxPositions.decode(raw);
          if (read === undefined) return;
          // Whatever reads as a position names only Box ids (digits) and a URL-safe marker.
          const ids = read.k === 'events' ? [read.p] : [...read.q, read.s];
          expect(ids.every((id) => /^\d{1,24}$/.test(id))).toBe(true);
        },
      ),
    );
  });
});

describe('a first pass wider than a token holds', () => {
  it('fails with a reason instead of handing out a token it would refuse', () => {
    const queue = Array.from({ length: 20_000 }, (_, i) => String(10_000_000_000 + i));
    expect(() => boxPositions.encode({ k: 'walk', q: queue, s: '1' })).toThrow(
      expect.objectContaining({ providerError: 'walk_too_wide' }),
    );
    const fits = queue.slice(0, 4_000);
    expect(boxPositions.decode(boxPositions.encode({ k: 'walk', q: fits, s: '1' }))).toEqual({
      k: 'walk',
      q: fits,
      s: '1',
    });
  });
});

describe('a chunk of Box events', () => {
  let server: Server;
  let base = '';
  let answer: unknown = {};

  beforeAll(async () => {
    server = createServer((request, response) => {
      const text = JSON.stringify(answer);
      response.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(text)),
      });
      response.end(text);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const LINK = '42';
  const event = fc.record({
    file: fc.constantFrom('1', '2', '3', '4'),
    type: fc.constantFrom(
      'ITEM_UPLOAD',
      'ITEM_MOVE',
      'ITEM_UNDELETE_VIA_TRASH',
      'ITEM_TRASH',
      'ITEM_DELETE',
      'COLLAB_INVITE',
    ),
    inside: fc.boolean(),
  });
  const cursor = boxPositions.encode({ k: 'events', p: '100' });

  it('reports each file once, as its last event left it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 12 }), async (events) => {
        answer = {
          chunk_size: events.length,
          next_stream_position: 200,
          entries: events.map((e) => ({
            type: 'event',
            event_type: e.type,
            source: {
              type: 'file',
              id: e.file,
              etag: `${e.file}-${e.type}`,
              name: `f${e.file}`,
              item_status: e.type === 'ITEM_TRASH' ? 'trashed' : 'active',
              path_collection: { total_count: 1, entries: [{ type: 'folder', id: e.inside ? LINK : '7' }] },
            },
          })),
        };
        const page = await new BoxApi({ apiUrl: base }).changes('t', LINK, { cursor }, 100);
        const last = new Map<string, (typeof events)[number]>();
        for (const e of events) if (e.type !== 'COLLAB_INVITE') last.set(e.file, e);
        expect(page.files.map((f) => f.id).sort()).toEqual([...last.keys()].sort());
        for (const file of page.files) {
          const e = last.get(file.id)!;
          const gone = e.type === 'ITEM_TRASH' || e.type === 'ITEM_DELETE' || !e.inside;
          expect(file.deleted).toBe(gone);
        }
        // Events came: more may follow from the new position; none: the pass ends there.
        const next = 'page' in page.next ? page.next.page : page.next.cursor;
        expect(boxPositions.decode(next)).toEqual({ k: 'events', p: '200' });
        expect('page' in page.next).toBe(events.length > 0);
      }),
      { numRuns: 60 },
    );
  });

  it('ends the feed at a folder trashed, moved or restored, wherever it sat in the chunk', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { maxLength: 6 }),
        fc.nat(6),
        fc.constantFrom('ITEM_TRASH', 'ITEM_MOVE', 'ITEM_UNDELETE_VIA_TRASH'),
        async (events, at, type) => {
          const entries: unknown[] = events.map((e) => ({
            event_type: e.type,
            source: { type: 'file', id: e.file, path_collection: { entries: [{ id: LINK }] } },
          }));
          entries.splice(Math.min(at, entries.length), 0, {
            event_type: type,
            source: { type: 'folder', id: '9' },
          });
          answer = { chunk_size: entries.length, next_stream_position: '300', entries };
          await expect(
            new BoxApi({ apiUrl: base }).changes('t', LINK, { cursor }, 100),
          ).rejects.toBeInstanceOf(FeedRestartError);
        },
      ),
      { numRuns: 30 },
    );
  });
});
