// Application key bindings: an organization's owner or admin ties a connector API key to one of its
// applications. One binding item per key, written conditionally, so a key can never have two.
// Binding grants no vault access and mints no credentials: it is a record, read by the console.
import type { Clock } from '../../platform/clock';
import type { ConsoleRole, ConsoleSession } from '../../platform/console-sessions';
import {
  ConditionFailedError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
} from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { ApiKeyRecord, Application, KeyBinding } from '../domain/records';
import type { DirectoryRepositories } from '../infra/repositories';
import { Directory } from './directory';
import type { KeyBindingBody } from '../api/views';

export type { KeyBinding } from '../domain/records';
export type { KeyBindingBody } from '../api/views';

export const BINDING_ROLES: readonly ConsoleRole[] = ['owner', 'admin'];

const MAX_ATTEMPTS = 3;

export const bindingBody = (binding: KeyBinding): KeyBindingBody => ({
  id: binding.id,
  application_id: binding.applicationId,
  api_key_id: binding.apiKeyId,
});

export class KeyBindings {
  private readonly directory: Directory;

  constructor(
    private readonly repositories: DirectoryRepositories,
    private readonly clock: Clock,
  ) {
    this.directory = new Directory(repositories, clock);
  }

  /**
   * Binds `apiKeyId` to `applicationId` for a console session. Repeating it returns the same binding;
   * a key bound elsewhere is a conflict (unbind it first).
   */
  async bind(session: ConsoleSession, applicationId: string, apiKeyId: string): Promise<KeyBinding> {
    const { application, key } = await this.authorize(session, applicationId, apiKeyId);
    if (key.system) {
      throw new InvalidRequestError('System keys belong to platform services and cannot be bound');
    }
    if (key.revokedAt) throw new NotFoundError('API key not found');
    // One binding per key: the repository's conditional create is what makes a key single-bound.
    const binding: KeyBinding = {
      id: newId('bnd'),
      applicationId: application.id,
      apiKeyId: key.id,
      organizationId: application.organizationId,
      createdAt: this.clock.now(),
      createdBy: session.userId,
    };
    for (let attempt = 1; ; attempt++) {
      try {
        await this.repositories.bindings.create(binding);
        return binding;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
      }
      const existing = await this.get(key.id);
      if (existing?.applicationId === application.id) return existing;
      // The other application by id (the console shows its name): the caller can unbind it there.
      if (existing)
        throw new ConflictError(
          `The API key is bound to another application (${existing.applicationId}); unbind it there first`,
        );
      // Unbound between our put and our read (a concurrent unbind): try again, a few times.
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError('The API key binding is changing; retry');
    }
  }

  /** Removes the binding of `apiKeyId` to `applicationId` (key rotation). */
  async unbind(session: ConsoleSession, applicationId: string, apiKeyId: string): Promise<void> {
    const { application, key } = await this.authorize(session, applicationId, apiKeyId);
    await this.remove(application.id, key.id);
  }

  /** Operator path (admin CLI): no session, the caller has table access. */
  async remove(applicationId: string, apiKeyId: string): Promise<void> {
    try {
      await this.repositories.bindings.deleteIfBoundTo(apiKeyId, applicationId);
    } catch (error) {
      if (error instanceof ConditionFailedError)
        throw new NotFoundError('The API key is not bound to this application');
      throw error;
    }
  }

  async get(apiKeyId: string): Promise<KeyBinding | undefined> {
    return this.repositories.bindings.get(apiKeyId);
  }

  async listForApplication(applicationId: string): Promise<KeyBinding[]> {
    return this.repositories.bindings.listForApplication(applicationId);
  }

  /**
   * The session rules, in an order that leaks nothing to the unentitled: role first (403), then the
   * application (404, or 403 when it belongs to another organization), then the key, which must be
   * of the application's organization (404 otherwise: other organizations' keys are not disclosed).
   */
  private async authorize(
    session: ConsoleSession,
    applicationId: string,
    apiKeyId: string,
  ): Promise<{ application: Application; key: ApiKeyRecord }> {
    if (!BINDING_ROLES.includes(session.role)) {
      throw new PermissionDeniedError('An owner or admin console session is required');
    }
    const application = await this.directory.getApplication(applicationId);
    if (!application) throw new NotFoundError('Application not found');
    if (application.organizationId !== session.organizationId) {
      throw new PermissionDeniedError("The console session is not of the application's organization");
    }
    const key = await this.directory.getApiKey(apiKeyId);
    if (!key || key.organizationId !== application.organizationId)
      throw new NotFoundError('API key not found');
    return { application, key };
  }
}
