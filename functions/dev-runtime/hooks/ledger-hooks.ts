// Development-only routes of the local server (never deployed), enabled by LOCAL_TEST_HOOKS=1:
//   POST /__dev/ledger {connectionId, count, vaultId?}   seeds a connection's ledger as an import would
//                                                        (a link, `count` small documents), for purges at scale
//   GET  /__dev/vault/<org>/<vault>/<object>            a vault document's metadata
//   GET  /__dev/vault/<org>/<vault>/<object>/content    its content
// so a person or an e2e test can read imports back and watch a purge work. The vault is another area
// of the platform: these stand in for its API.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ConnectionRepository, Links, importDocument } from '../../connectors/index';
import { newId } from '../../platform/ids';
import type { Deps } from '../../platform/ports';
import type { Extension } from '../server/server';

const MAX_SEED = 5_000;
const DOCUMENT = /^\/__dev\/vault\/([^/]+)\/([^/]+)\/([^/]+?)(\/content)?$/;

export function devLedgerHooks(deps: Deps): Extension {
  return async (request, response, url, body) => {
    if (process.env.LOCAL_TEST_HOOKS !== '1') return false;
    const answer = (status: number, value: unknown) => {
      response.statusCode = status;
      response.setHeader('Content-Type', 'application/json');
      response.end(JSON.stringify(value));
      return true;
    };
    const document = DOCUMENT.exec(url.pathname);
    if (document && request.method === 'GET') {
      const [organizationId, vaultId, objectId] = document.slice(1, 4).map((s) => decodeURIComponent(s!)) as [
        string,
        string,
        string,
      ];
      const ref = { organizationId, vaultId, objectId };
      const found = await deps.vault.get(ref);
      if (!found) return answer(404, { error: { code: 'NOT_FOUND', message: 'No such document' } });
      if (!document[4]) return answer(200, found);
      response.writeHead(200, { 'Content-Type': found.contentType, 'Content-Length': String(found.size) });
      await pipeline((await deps.vault.read(ref))!, response);
      return true;
    }
    if (url.pathname !== '/__dev/ledger' || request.method !== 'POST') return false;
    const input = JSON.parse(body.toString('utf8') || '{}') as {
      connectionId?: string;
      count?: number;
      vaultId?: string;
    };
    const count = Math.min(Math.max(Number(input.count ?? 1), 0), MAX_SEED);
    const connection = input.connectionId
      ? await ConnectionRepository.of(deps).get(input.connectionId)
      : undefined;
    if (!connection) return answer(404, { error: { code: 'NOT_FOUND', message: 'Connection not found' } });
    const now = deps.clock.now();
    const link = {
      id: newId('lnk'),
      organizationId: connection.organizationId,
      connectionId: connection.id,
      provider: connection.provider,
      vaultId: input.vaultId ?? 'vlt_development',
      sourceId: 'dev-seed',
      createdAt: now,
      updatedAt: now,
    };
    await Links.of(deps).put(link);
    const objectIds: string[] = [];
    for (let i = 0; i < count; i++) {
      const stored = await importDocument(
        deps,
        link,
        {
          sourceId: `seed-${i}`,
          name: `seeded ${i}.txt`,
          version: '1',
          contentType: 'text/plain',
          content: Readable.from([`seeded document ${i}\n`]),
        },
        { jobId: 'dev-seed', outcome: 'imported' },
      );
      objectIds.push(stored.objectId);
    }
    return answer(201, {
      linkId: link.id,
      vaultId: link.vaultId,
      organizationId: link.organizationId,
      objectIds,
    });
  };
}
