// API Gateway REQUEST authorizer for console routes: verifies the console session (a JWT from the
// console's identity provider, or an operator's session opened from a console link, read from the
// platform table) and hands user, organization and role to the handler.
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { bearerToken } from '../../../platform/api-keys';
import { consoleSessionConfig, remoteKeys, verifyConsoleSession } from '../../../platform/console-sessions';
import { issuedSessionPrincipalId, looksLikeIssuedSession } from '../../../platform/portal-sessions';
import type { Deps } from '../../../platform/ports';
import { Portal } from '../../app/portal';
import { directoryRepositories } from '../../infra/repositories';
import { AuthInvalidError } from '../../../platform/errors';
import { logger } from '../../../platform/logger';
import { mappedStack } from '../../../platform/stack-trace';

export const create =
  (deps: Deps) =>
  async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const headers = event.headers ?? {};
    const token = bearerToken(headers.Authorization ?? headers.authorization);
    const refuse = (reason: string): never => {
      logger.info('console authorizer refused', { requestId: event.requestContext?.requestId, reason });
      throw new Error('Unauthorized'); // API Gateway answers 401 (the UNAUTHORIZED gateway response)
    };
    if (!token) return refuse('no bearer token');
    let session;
    if (looksLikeIssuedSession(token)) {
      // An operator's session from a console link administers the organization; a portal never does.
      const issued = await new Portal(directoryRepositories(deps), deps.clock).authenticate(token);
      if (!issued) return refuse('unknown, ended or revoked session');
      if (issued.grant.kind !== 'console')
        return refuse('a portal session does not administer the organization');
      session = {
        userId: issued.grant.user ?? issuedSessionPrincipalId(issued.id),
        organizationId: issued.grant.organizationId,
        role: issued.grant.role,
      };
    } else
      try {
        const config = consoleSessionConfig();
        session = await verifyConsoleSession(token, {
          keys: remoteKeys(config.jwksUrl),
          issuer: config.issuer,
          audience: config.audience,
          clock: deps.clock,
        });
      } catch (error) {
        if (error instanceof AuthInvalidError) return refuse(error.message);
        // The stack at its source lines: Lambda prints the rethrown error's minified one (stack-trace.ts).
        logger.error('console session verification failed', {
          error,
          stack: error instanceof Error ? mappedStack(error) : undefined,
        });
        throw error; // API Gateway answers 500: not configured, or the provider's keys could not be had
      }
    // Like the API-key authorizer, the policy covers the whole API; this authorizer's cache is its own.
    const [arnPrefix, stageName] = event.methodArn.split('/');
    return {
      principalId: session.userId,
      policyDocument: {
        Version: '2012-10-17',
        Statement: [
          { Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${arnPrefix}/${stageName}/*` },
        ],
      },
      context: { userId: session.userId, organizationId: session.organizationId, role: session.role },
    };
  };
