// Development-only routes of the local server (never deployed), enabled by LOCAL_TEST_HOOKS=1: seed a
// connection's ledger as an import would (POST /__dev/ledger), and look a vault document up
// (GET /__dev/vault/<vault>/<object>), so a person or an e2e test can watch a purge work.
import { Ledger, importDocument } from '../connectors';
import { ConnectorStore } from '../connectors';
import type { Deps } from '../platform/ports';
import type { Extension } from './server';

const MAX_SEED = 5_000;

export function devLedgerHooks(deps: Deps): Extension {
  return async (request, response, url, body) => {
    if (process.env.LOCAL_TEST_HOOKS !== '1' || !deps.vault) return false;
    const vault = deps.vault;
    const answer = (status: number, value: unknown) => {
      response.statusCode = status;
      response.setHeader('Content-Type', 'application/json');
      response.end(JSON.stringify(value));
      return true;
    };
    const document = /^\/__dev\/vault\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (document && request.method === 'GET') {
      const found = await vault.get(decodeURIComponent(document[1]!), decodeURIComponent(document[2]!));
      return found
        ? answer(200, found)
        : answer(404, { error: { code: 'NOT_FOUND', message: 'No such document' } });
    }
    if (url.pathname !== '/__dev/ledger' || request.method !== 'POST') return false;
    const input = JSON.parse(body.toString('utf8') || '{}') as {
      connectionId?: string;
      count?: number;
      vaultId?: string;
    };
    const count = Math.min(Math.max(Number(input.count ?? 1), 0), MAX_SEED);
    const connection = input.connectionId
      ? await new ConnectorStore(deps.tables.connectors).getConnection(input.connectionId)
      : undefined;
    if (!connection) return answer(404, { error: { code: 'NOT_FOUND', message: 'Connection not found' } });
    const link = await new Ledger(deps.tables.connectors).createLink(
      {
        connectionId: connection.id,
        organizationId: connection.organizationId,
        source: 'dev:seed',
        vaultId: input.vaultId ?? 'vlt_development',
      },
      deps.clock.now(),
    );
    const objectIds: string[] = [];
    for (let i = 0; i < count; i++) {
      const objectId = `obj_${link.id.slice(4, 12)}_${i}`;
      await importDocument({ ...deps, vault }, link, { objectId, name: `seeded ${i}.pdf` });
      objectIds.push(objectId);
    }
    return answer(201, { linkId: link.id, vaultId: link.vaultId, objectIds });
  };
}
