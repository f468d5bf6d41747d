// API Gateway REQUEST authorizer for API-key routes: verifies the key, hands the principal to the
// handler through the request context. Permission and rate limit are checked by the route's stack.
// A console session (a JWT from the console's identity provider) is accepted too, as a principal whose
// permissions follow its role (docs/decisions.md, "The console acts through the API-key routes"), and so
// is a session opened from a portal link (`lps_`), whose permissions follow its grant.
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { Directory } from '../../app/directory';
import { Portal } from '../../app/portal';
import { directoryRepositories } from '../../infra/repositories';
import { bearerToken } from '../../../platform/api-keys';
import {
  consolePermissions,
  consolePrincipalId,
  consoleSessionConfig,
  looksLikeConsoleSession,
  remoteKeys,
  verifyConsoleSession,
} from '../../../platform/console-sessions';
import { issuedSessionPrincipalId, looksLikeIssuedSession } from '../../../platform/portal-sessions';
import { issuedSessionPermissions } from '../../app/session-permissions';
import type { Deps } from '../../../platform/ports';
import type { Principal } from '../../../platform/principal';
import { AuthInvalidError } from '../../../platform/errors';
import { logger } from '../../../platform/logger';
import { mappedStack } from '../../../platform/stack-trace';

async function sessionPrincipal(deps: Deps, token: string): Promise<Principal | undefined> {
  try {
    const config = consoleSessionConfig();
    const session = await verifyConsoleSession(token, {
      keys: remoteKeys(config.jwksUrl),
      issuer: config.issuer,
      audience: config.audience,
      clock: deps.clock,
    });
    return {
      organizationId: session.organizationId,
      keyId: consolePrincipalId(session.userId),
      permissions: consolePermissions(session.role),
      system: false,
    };
  } catch (error) {
    if (error instanceof AuthInvalidError) return undefined;
    // The stack at its source lines: Lambda prints the rethrown error's minified one (stack-trace.ts).
    logger.error('console session verification failed', {
      error,
      stack: error instanceof Error ? mappedStack(error) : undefined,
    });
    throw error; // API Gateway answers 500: not configured, or the provider's keys could not be had
  }
}

/** A session opened from a link: a portal's sections and role, or an operator's console role. */
async function issuedPrincipal(deps: Deps, token: string): Promise<Principal | undefined> {
  const session = await new Portal(directoryRepositories(deps), deps.clock).authenticate(token);
  if (!session) return undefined;
  const { grant } = session;
  return {
    organizationId: grant.organizationId,
    keyId: issuedSessionPrincipalId(session.id),
    permissions: issuedSessionPermissions(grant),
    system: false,
  };
}

export const create =
  (deps: Deps) =>
  async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const headers = event.headers ?? {};
    const authorization = headers.Authorization ?? headers.authorization;
    const presented = bearerToken(authorization);
    const principal = !presented
      ? undefined
      : looksLikeConsoleSession(presented)
        ? await sessionPrincipal(deps, presented)
        : looksLikeIssuedSession(presented)
          ? await issuedPrincipal(deps, presented)
          : await new Directory(directoryRepositories(deps), deps.clock).authenticate(presented);
    if (!principal) {
      logger.info('authorizer refused', {
        requestId: event.requestContext?.requestId,
        reason: presented ? 'unknown or revoked key or session' : 'no bearer token',
      });
      throw new Error('Unauthorized'); // API Gateway answers 401 (the UNAUTHORIZED gateway response)
    }
    // The policy covers the whole API: API Gateway caches it per key and reuses it across routes.
    const [arnPrefix, stageName] = event.methodArn.split('/');
    return {
      principalId: principal.keyId,
      policyDocument: {
        Version: '2012-10-17',
        Statement: [
          { Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${arnPrefix}/${stageName}/*` },
        ],
      },
      context: {
        organizationId: principal.organizationId,
        keyId: principal.keyId,
        permissions: principal.permissions.join(','),
        system: principal.system,
      },
    };
  };
