export { Client, JobTimeoutError } from './client.js';
export type {
  ClientOptions,
  CreateOptions,
  WaitOptions,
  Connection,
  ConnectionDetail,
  PendingConnection,
  ImportLink,
  SyncRun,
  ExportJob,
  ConnectorJob,
  WebhookJob,
  JobStarted,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  Event,
  Delivery,
} from './client.js';
export {
  ApiError,
  AuthenticationError,
  ConflictError,
  GoneError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  ValidationError,
  type ErrorBody,
} from './errors.js';
export { Paginated } from './pagination.js';
export type { RetryOptions } from './retry.js';
export {
  verify,
  WebhookVerificationError,
  type VerificationFailure,
  type VerifyOptions,
  type WebhookHeaders,
} from './webhooks.js';
export type { components, paths } from './generated/schema.js';
