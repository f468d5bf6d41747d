// Browsing a connection's provider for what can be imported: the top level (matters, root folders) or a
// container's entries, a page at a time, through the stored token (refreshed on use).
import { NotFoundError } from '../../platform/errors';
import type { SourceEntry } from '../infra/content';
import type { SourceView } from '../api/views';
import { owned } from './connections';
import { apiErrorOf, containersFor, requireUsable } from './provider-calls';
import type { ConnectorContext } from './context';
import { ConnectionRepository } from '../infra/repositories/connections';

const sourceView = (entry: SourceEntry): SourceView => ({
  id: entry.id,
  name: entry.name,
  kind: entry.kind,
  ...(entry.size !== undefined ? { size: entry.size } : {}),
  ...(entry.version !== undefined ? { version: entry.version } : {}),
  ...(entry.contentType ? { content_type: entry.contentType } : {}),
  ...(entry.updatedAt ? { updated_at: entry.updatedAt } : {}),
});

export async function browseSources(
  ctx: ConnectorContext,
  organizationId: string,
  connectionId: string,
  query: { parent?: string; limit: number; page_token?: string },
): Promise<{ data: SourceView[]; next_page_token: string | null }> {
  const { deps, config } = ctx;
  const connection = await owned(ConnectionRepository.of(deps), organizationId, connectionId);
  await requireUsable(deps, connection);
  const api = await containersFor(config, connection);
  try {
    const page = await ctx
      .connection(connectionId)
      .call((token) => api.browse(token, query.parent, { token: query.page_token, limit: query.limit }));
    return { data: page.entries.map(sourceView), next_page_token: page.next ?? null };
  } catch (error) {
    throw apiErrorOf(
      error,
      deps.clock.now(),
      new NotFoundError(
        query.parent
          ? `The provider has no container ${query.parent} this account can see`
          : 'Not found at the provider',
      ),
    );
  }
}
