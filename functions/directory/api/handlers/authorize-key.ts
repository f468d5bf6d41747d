// API Gateway REQUEST authorizer for API-key routes: verifies the key, hands the principal to the
// handler through the request context. Permission and rate limit are checked by the route's stack.
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { Directory } from '../../app/directory';
import { bearerToken } from '../../../platform/api-keys';
import type { Deps } from '../../../platform/ports';
import { logger } from '../../../platform/logger';

export const create =
  (deps: Deps) =>
  async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const headers = event.headers ?? {};
    const authorization = headers.Authorization ?? headers.authorization;
    const presented = bearerToken(authorization);
    const { tables, clock } = deps;
    const principal = presented
      ? await new Directory(tables.platform, clock).authenticate(presented)
      : undefined;
    if (!principal) {
      logger.info('authorizer refused', {
        requestId: event.requestContext?.requestId,
        reason: presented ? 'unknown or revoked key' : 'no bearer token',
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
