// The client: one object with the base URL and the key, one method per operation grouped by area.
// Types and requests come from the generated layer (generated/schema.ts, driven by openapi-fetch);
// this layer adds errors, pagination, retries, idempotency keys and job polling.
import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/schema.js';
import { errorFor, NotFoundError } from './errors.js';
import { Paginated } from './pagination.js';
import { DEFAULT_RETRY, retryingFetch, type RetryOptions } from './retry.js';

type Schemas = components['schemas'];
type Query<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;
type Http = ReturnType<typeof createClient<paths>>;

export type Connection = Schemas['Connection'];
export type ConnectionDetail = Schemas['ConnectionDetail'];
export type PendingConnection = Schemas['PendingConnection'];
export type ImportLink = Schemas['ImportLink'];
export type SyncRun = Schemas['SyncRun'];
export type ExportJob = Schemas['ExportJob'];
export type ConnectorJob = Schemas['ConnectorJob'];
export type WebhookJob = Schemas['WebhookJob'];
export type JobStarted = Schemas['JobStarted'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
export type Event = Schemas['Event'];
export type Delivery = Schemas['Delivery'];

export interface ClientOptions {
  /** The service's base URL, e.g. `https://api.example.com` or `http://localhost:3000`. */
  baseUrl: string;
  /** An API key of the organization (a system key for `events.publish`). */
  apiKey: string;
  /** Retries of 429 and 5xx answers; `{ maxRetries: 0 }` turns them off. */
  retry?: Partial<RetryOptions>;
  /** The fetch to send requests with (default: the global fetch). */
  fetch?: (input: Request) => Promise<Response>;
}

export interface CreateOptions {
  /** Sent as Idempotency-Key: a retry with the same key answers the first outcome. Generated when absent. */
  idempotencyKey?: string;
}

export interface WaitOptions {
  /** Between polls (default 1 s). */
  intervalMs?: number;
  /** Give up after this long (default 5 minutes): throws JobTimeoutError. */
  timeoutMs?: number;
}

export class JobTimeoutError extends Error {
  constructor(readonly jobId: string) {
    super(`Job ${jobId} still running when the wait ended`);
    this.name = 'JobTimeoutError';
  }
}

/** The answer's data, or the typed error of a non-2xx answer. */
async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorFor(response, error);
  return data as T;
}

export class Client {
  readonly providers;
  readonly connections;
  readonly links;
  readonly exports;
  readonly jobs;
  readonly endpoints;
  readonly events;
  readonly deliveries;
  readonly eventTypes;
  readonly deadLetters;
  readonly applications;

  constructor(options: ClientOptions) {
    const http: Http = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: { Authorization: `Bearer ${options.apiKey}` },
      fetch: retryingFetch({ ...DEFAULT_RETRY, ...options.retry }, options.fetch),
    });
    const key = (given?: CreateOptions) => ({ 'Idempotency-Key': given?.idempotencyKey ?? randomUUID() });

    this.providers = {
      list: () => unwrap(http.GET('/connectors/v1/providers')),
    };

    this.connections = {
      create: (body: Schemas['CreateConnectionRequest'], options?: CreateOptions) =>
        unwrap(http.POST('/connectors/v1/connections', { body, params: { header: key(options) } })),
      list: (query: Omit<Query<'/connectors/v1/connections'>, 'offset'> = {}) =>
        new Paginated((q) => unwrap(http.GET('/connectors/v1/connections', { params: { query: q } })), query),
      get: (id: string) => unwrap(http.GET('/connectors/v1/connections/{id}', { params: { path: { id } } })),
      /** Disconnects; with `purge: true` also deletes what it imported (a job: `jobs.wait`). */
      delete: async (id: string, query: { purge?: boolean } = {}): Promise<JobStarted | undefined> =>
        (await unwrap(
          http.DELETE('/connectors/v1/connections/{id}', {
            params: {
              path: { id },
              query: query.purge === undefined ? {} : { purge: String(query.purge) as 'true' },
            },
          }),
        )) ?? undefined,
      setProviderEnabled: (body: Schemas['SetProviderEnabledRequest']) =>
        unwrap(http.PATCH('/connectors/v1/connections', { body })),
      /** The provider's matters and folders; `parent` lists inside one. */
      sources: (id: string, query: { parent?: string; limit?: number } = {}) =>
        new Paginated(
          (q) =>
            unwrap(
              http.GET('/connectors/v1/connections/{id}/sources', {
                params: { path: { id }, query: q as Query<'/connectors/v1/connections/{id}/sources'> },
              }),
            ),
          query,
        ),
    };

    this.links = {
      create: (connectionId: string, body: Schemas['CreateImportLinkRequest']) =>
        unwrap(
          http.POST('/connectors/v1/connections/{id}/links', {
            params: { path: { id: connectionId } },
            body,
          }),
        ),
      list: (connectionId: string, query: { limit?: number } = {}) =>
        new Paginated(
          (q) =>
            unwrap(
              http.GET('/connectors/v1/connections/{id}/links', {
                params: { path: { id: connectionId }, query: q },
              }),
            ),
          query,
        ),
      get: (id: string) => unwrap(http.GET('/connectors/v1/links/{id}', { params: { path: { id } } })),
      update: (id: string, body: Schemas['UpdateImportLinkRequest']) =>
        unwrap(http.PATCH('/connectors/v1/links/{id}', { params: { path: { id } }, body })),
      delete: (id: string) => unwrap(http.DELETE('/connectors/v1/links/{id}', { params: { path: { id } } })),
      runs: {
        /** Starts an import run now; the answer names the job to `jobs.wait` for. */
        start: (linkId: string, body?: Schemas['StartSyncRunRequest']) =>
          unwrap(http.POST('/connectors/v1/links/{id}/runs', { params: { path: { id: linkId } }, body })),
        list: (linkId: string, query: { limit?: number } = {}) =>
          new Paginated(
            (q) =>
              unwrap(
                http.GET('/connectors/v1/links/{id}/runs', { params: { path: { id: linkId }, query: q } }),
              ),
            query,
          ),
      },
      /** The documents a link imported, across every page. */
      documents: (linkId: string, query: { limit?: number; changed_since?: string } = {}) =>
        new Paginated(
          (q) =>
            unwrap(
              http.GET('/connectors/v1/links/{id}/documents', { params: { path: { id: linkId }, query: q } }),
            ),
          query,
        ),
    };

    this.exports = {
      create: (connectionId: string, body: Schemas['CreateExportRequest']) =>
        unwrap(
          http.POST('/connectors/v1/connections/{id}/exports', {
            params: { path: { id: connectionId } },
            body,
          }),
        ),
    };

    const getConnectorJob = (id: string) =>
      unwrap(http.GET('/connectors/jobs/{id}', { params: { path: { id } } }));
    const getWebhookJob = (id: string) =>
      unwrap(http.GET('/webhooks/jobs/{id}', { params: { path: { id } } }));
    this.jobs = {
      get: getConnectorJob,
      getWebhookJob,
      /**
       * Polls a job (an import run, an export, a purge, or an endpoint recovery) until it leaves
       * `processing`, and returns it as it ended (check `status`).
       */
      wait: async (
        job: string | { id: string },
        options: WaitOptions = {},
      ): Promise<ConnectorJob | WebhookJob> => {
        const id = typeof job === 'string' ? job : job.id;
        const deadline = Date.now() + (options.timeoutMs ?? 300_000);
        // Both areas' jobs share the id format: the first answer says which area holds this one.
        let get: (id: string) => Promise<ConnectorJob | WebhookJob> = async (jobId) => {
          try {
            const found = await getConnectorJob(jobId);
            get = getConnectorJob;
            return found;
          } catch (error) {
            if (!(error instanceof NotFoundError)) throw error;
            get = getWebhookJob;
            return getWebhookJob(jobId);
          }
        };
        for (;;) {
          const current = await get(id);
          if (current.status !== 'processing') return current;
          if (Date.now() >= deadline) throw new JobTimeoutError(id);
          await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1000));
        }
      },
    };

    this.endpoints = {
      /** The answer carries the signing secret, shown this once. */
      create: (body: Schemas['CreateWebhookEndpointRequest']) =>
        unwrap(http.POST('/webhooks/v1/endpoints', { body })),
      list: (query: { limit?: number } = {}) =>
        new Paginated((q) => unwrap(http.GET('/webhooks/v1/endpoints', { params: { query: q } })), query),
      get: (id: string) => unwrap(http.GET('/webhooks/v1/endpoints/{id}', { params: { path: { id } } })),
      update: (id: string, body: Schemas['UpdateWebhookEndpointRequest']) =>
        unwrap(http.PATCH('/webhooks/v1/endpoints/{id}', { params: { path: { id } }, body })),
      delete: (id: string) =>
        unwrap(http.DELETE('/webhooks/v1/endpoints/{id}', { params: { path: { id } } })),
      enable: (id: string) =>
        unwrap(http.POST('/webhooks/v1/endpoints/{id}/enable', { params: { path: { id } } })),
      disable: (id: string) =>
        unwrap(http.POST('/webhooks/v1/endpoints/{id}/disable', { params: { path: { id } } })),
      rotateSecret: (id: string) =>
        unwrap(http.POST('/webhooks/v1/endpoints/{id}/rotate-secret', { params: { path: { id } } })),
      test: (id: string) =>
        unwrap(http.POST('/webhooks/v1/endpoints/{id}/test', { params: { path: { id } } })),
      /** Redelivers a window's failed deliveries (a job: `jobs.wait`). */
      recover: (id: string, body: Schemas['RecoverWebhookEndpointRequest']) =>
        unwrap(http.POST('/webhooks/v1/endpoints/{id}/recover', { params: { path: { id } }, body })),
      deliveries: (
        id: string,
        query: Omit<Query<'/webhooks/v1/endpoints/{id}/deliveries'>, 'offset' | 'cursor'> = {},
      ) =>
        new Paginated(
          (q) =>
            unwrap(
              http.GET('/webhooks/v1/endpoints/{id}/deliveries', {
                params: { path: { id }, query: q as Query<'/webhooks/v1/endpoints/{id}/deliveries'> },
              }),
            ),
          query,
        ),
    };

    this.events = {
      /** Publishes an event to the organization's endpoints (a system key). */
      publish: (body: Schemas['PublishWebhookEventRequest'], options?: CreateOptions) =>
        unwrap(http.POST('/webhooks/v1/events', { body, params: { header: key(options) } })),
    };

    this.deliveries = {
      get: (id: string) => unwrap(http.GET('/webhooks/v1/deliveries/{id}', { params: { path: { id } } })),
      replay: (id: string) =>
        unwrap(http.POST('/webhooks/v1/deliveries/{id}/replay', { params: { path: { id } } })),
    };

    this.eventTypes = {
      list: (query: { limit?: number } = {}) =>
        new Paginated((q) => unwrap(http.GET('/webhooks/v1/event-types', { params: { query: q } })), query),
    };

    this.deadLetters = {
      list: (query: { limit?: number } = {}) =>
        unwrap(http.GET('/webhooks/v1/dead-letters', { params: { query } })),
    };

    this.applications = {
      list: (query: { limit?: number } = {}) =>
        new Paginated(
          (q) => unwrap(http.GET('/connectors/v1/applications', { params: { query: q } })),
          query,
        ),
      bindKey: (id: string, keyId: string) =>
        unwrap(
          http.PUT('/connectors/v1/applications/{id}/keys/{keyId}', { params: { path: { id, keyId } } }),
        ),
      unbindKey: (id: string, keyId: string) =>
        unwrap(
          http.DELETE('/connectors/v1/applications/{id}/keys/{keyId}', { params: { path: { id, keyId } } }),
        ),
    };
  }
}
