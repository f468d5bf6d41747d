// The REST API, built from the route table: one Lambda per route, the API-key authorizer on every
// apiKey route, the console-session authorizer on every console route, and gateway responses that
// speak the service's one error body.
import { Annotations, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { IResource } from 'aws-cdk-lib/aws-apigateway';
import {
  AccessLogFormat,
  AuthorizationType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RequestAuthorizer,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../functions/platform/route-types';
import type { TableName } from '../functions/platform/ports';
import { API_KEY_AUTHORIZER, CONSOLE_AUTHORIZER, ROUTES } from '../functions/routes';
import {
  GATEWAY_RESPONSES,
  INTEGRATION_TIMEOUT_SECONDS,
  STAGE_THROTTLING,
  gatewayResponseHeaders,
} from '../functions/platform/gateway-responses';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { DataStores } from './data';
import type { Messaging } from './messaging';
import { ServiceFunction } from './service-function';
import type { StageConfig } from './stage-config';

export interface ApiProps {
  stage: StageConfig;
  data: DataStores;
  messaging: Messaging;
  /** Extra environment for routes (provider endpoints and client ids, for instance). */
  environmentFor?: (route: RouteDefinition) => Record<string, string>;
  /** Secrets a route reads at run time (the connector client secrets and state key), bound to its function. */
  bindSecrets?: (route: RouteDefinition, fn: ServiceFunction) => void;
  routes?: readonly RouteDefinition[];
  /**
   * Where a route's function is made: its area's nested stack (lib/area-stacks.ts). The methods, the
   * authorizers and their functions stay with the REST API. Omitted: in this construct.
   */
  functionScope?: (route: RouteDefinition) => Construct;
}

const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);

export class Api extends Construct {
  readonly restApi: RestApi;
  readonly functions = new Map<string, ServiceFunction>();
  readonly authorizerFunction: ServiceFunction;
  /** The log group of every function the API makes. */
  readonly functionLogs: LogGroup;
  /** Made with the first console route. */
  consoleAuthorizerFunction?: ServiceFunction;
  private consoleAuthorizer?: RequestAuthorizer;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const { stage, data, messaging } = props;
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: stage.logRetention,
      removalPolicy: stage.removalPolicy,
    });
    // Every route function and both authorizers log here: one log group per route would cost a
    // CloudFormation resource per route (test/cdk/resource-budget.test.ts). Lambda names each stream
    // `<date>/<function name>[<version>]<instance>`, and every line carries the function name.
    this.functionLogs = new LogGroup(this, 'FunctionLogs', {
      retention: stage.logRetention,
      removalPolicy: stage.removalPolicy,
    });
    this.restApi = new RestApi(this, 'RestApi', {
      restApiName: `${Stack.of(this).stackName}-api`,
      description: 'Connector and event delivery service',
      deployOptions: {
        stageName: stage.stage,
        tracingEnabled: true,
        loggingLevel: MethodLoggingLevel.ERROR,
        metricsEnabled: true,
        throttlingBurstLimit: STAGE_THROTTLING.burstLimit,
        throttlingRateLimit: STAGE_THROTTLING.rateLimit,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
      },
      // API Gateway writes execution and access logs through one role per account and region (the
      // AWS::ApiGateway::Account setting); a fresh account has none and refuses a logging stage. The
      // stack sets it unless the account's setting is owned elsewhere (docs/deploy.md). Retained: other
      // APIs of the account log through it too, so deleting this stack must not take it away.
      cloudWatchRole: stage.apiGatewayCloudWatchRole,
      ...(stage.apiGatewayCloudWatchRole ? { cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN } : {}),
    });

    // The table the emulated AWS runtime answers with too (functions/platform/gateway-responses.ts).
    for (const response of GATEWAY_RESPONSES) {
      const headers = gatewayResponseHeaders(response);
      this.restApi.addGatewayResponse(response.name, {
        type: ResponseType.of(response.type),
        statusCode: String(response.statusCode),
        templates: {
          'application/json': JSON.stringify({ error: { code: response.code, message: response.message } }),
        },
        ...(Object.keys(headers).length
          ? { responseHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, `'${v}'`])) }
          : {}),
      });
    }

    this.authorizerFunction = new ServiceFunction(this, 'ApiKeyAuthorizer', {
      handler: API_KEY_AUTHORIZER.handler,
      stage,
      logGroup: this.functionLogs,
      description: 'API key authorizer',
      // It also accepts console sessions (docs/decisions.md): the same identity provider settings.
      environment: stage.console
        ? {
            CONSOLE_ISSUER: stage.console.issuer,
            CONSOLE_AUDIENCE: stage.console.audience,
            CONSOLE_JWKS_URL: stage.console.jwksUrl,
          }
        : undefined,
    }).bindTable('platform', data.tables.platform, API_KEY_AUTHORIZER.uses.tables.platform);
    const authorizer = new RequestAuthorizer(this, 'Authorizer', {
      handler: this.authorizerFunction.fn,
      identitySources: [IdentitySource.header('Authorization')],
      resultsCacheTtl: stage.authorizerCacheTtl,
    });

    for (const route of props.routes ?? ROUTES) {
      const fn = new ServiceFunction(props.functionScope?.(route) ?? this, pascal(route.id), {
        handler: route.handler,
        stage,
        logGroup: this.functionLogs,
        description: `${route.method} ${route.path}`,
        environment: props.environmentFor?.(route),
        ...(route.timeoutSeconds ? { timeout: Duration.seconds(route.timeoutSeconds) } : {}),
      });
      for (const [name, access] of Object.entries(route.uses.tables ?? {})) {
        fn.bindTable(name as TableName, data.tables[name as TableName], access);
      }
      props.bindSecrets?.(route, fn);
      if (route.auth === 'apiKey') fn.bindTable('ratelimits', data.tables.ratelimits, 'write');
      if (route.uses.kms) fn.bindKey(data.key, route.uses.kms);
      for (const queue of route.uses.queues ?? []) fn.bindQueue(queue, messaging.queues[queue].queue);
      for (const queue of route.uses.deadLetters ?? [])
        fn.bindDeadLetters(queue, messaging.queues[queue].deadLetterQueue);
      this.functions.set(route.id, fn);

      this.resourceFor(route.path).addMethod(
        route.method,
        // One invoke permission per function, for its own method on the deployed stage; the console's
        // test-invoke permission would double the count (a CloudFormation resource per route).
        new LambdaIntegration(fn.fn, {
          timeout: Duration.seconds(INTEGRATION_TIMEOUT_SECONDS),
          allowTestInvoke: false,
        }),
        {
          operationName: route.id,
          ...(route.auth === 'apiKey'
            ? { authorizer, authorizationType: AuthorizationType.CUSTOM }
            : route.auth === 'console'
              ? {
                  authorizer: this.consoleAuthorizerFor(stage, data.tables.platform),
                  authorizationType: AuthorizationType.CUSTOM,
                }
              : { authorizationType: AuthorizationType.NONE }),
        },
      );
    }
  }

  /**
   * Console sessions: JWTs checked against the identity provider's JWKS, or sessions opened from console
   * links, read from the platform table. No KMS.
   */
  private consoleAuthorizerFor(stage: StageConfig, platformTable: ITable): RequestAuthorizer {
    if (this.consoleAuthorizer) return this.consoleAuthorizer;
    const idp = stage.console;
    if (!idp) {
      Annotations.of(this).addWarning(
        'No consoleIssuer/consoleAudience/consoleJwksUrl context: console routes will fail closed (500) on an identity provider JWT; sessions opened from console links still sign in',
      );
    }
    this.consoleAuthorizerFunction = new ServiceFunction(this, 'ConsoleAuthorizer', {
      handler: CONSOLE_AUTHORIZER.handler,
      stage,
      logGroup: this.functionLogs,
      description: 'Console session authorizer',
      environment: idp
        ? { CONSOLE_ISSUER: idp.issuer, CONSOLE_AUDIENCE: idp.audience, CONSOLE_JWKS_URL: idp.jwksUrl }
        : undefined,
      // Sessions opened from console links are read from the platform table.
    }).bindTable('platform', platformTable, CONSOLE_AUTHORIZER.uses.tables.platform);
    this.consoleAuthorizer = new RequestAuthorizer(this, 'ConsoleSessionAuthorizer', {
      handler: this.consoleAuthorizerFunction.fn,
      identitySources: [IdentitySource.header('Authorization')],
      resultsCacheTtl: stage.authorizerCacheTtl,
    });
    return this.consoleAuthorizer;
  }

  private resourceFor(path: string): IResource {
    return path
      .split('/')
      .filter(Boolean)
      .reduce<IResource>(
        (parent, part) => parent.getResource(part) ?? parent.addResource(part),
        this.restApi.root,
      );
  }
}
