// The one-way rules of functions/ (docs/architecture.md shows the picture), checked in CI by
// `npm run depcruise`. An area is a folder of functions/ other than platform, adapters, compose and
// dev-runtime; inside an area, api/ (routes, schemas, handlers) -> app/ (use cases) -> domain/
// (pure rules), with infra/ (outbound HTTP, definitions for AWS services) used by app/.
const AREAS = '(connectors|directory|docs|events|webhooks)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'deployed-code-imports-no-console',
      severity: 'error',
      comment:
        'console/ is a browser bundle: only the dev runtime builds it (by path), nothing deployed imports it.',
      from: { path: '^functions/', pathNot: '^functions/dev-runtime/' },
      to: { path: '^console/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle at file level (folder cycles are ruled out by the rules below).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'the-sandbox-stands-alone',
      severity: 'error',
      comment: 'sandbox/ is a fake of a third party: it shares no code with the service it is a provider of.',
      from: { path: '^sandbox/' },
      to: { path: '^(functions|bin|lib|test|bench|console)/' },
    },
    {
      name: 'only-the-dev-runtime-starts-the-sandbox',
      severity: 'error',
      comment: 'Nothing deployed knows the sandbox; the development runtime starts it (and tests, benches).',
      from: { path: '^functions/', pathNot: '^functions/dev-runtime/' },
      to: { path: '^sandbox/' },
    },
    {
      name: 'the-sandbox-through-its-index',
      severity: 'error',
      comment: 'The sandbox is reached through its public surface, sandbox/index.ts.',
      from: { pathNot: '^sandbox/' },
      to: { path: '^sandbox/', pathNot: '^sandbox/index\\.ts$' },
    },
    {
      name: 'platform-imports-no-area',
      severity: 'error',
      comment: 'platform/ is the shared kernel: it imports nothing else of functions/.',
      from: { path: '^functions/platform/' },
      to: { path: '^functions/', pathNot: '^functions/platform/' },
    },
    {
      name: 'adapters-implement-ports-only',
      severity: 'error',
      comment: 'Adapters implement the ports of platform/ and know no area.',
      from: { path: '^functions/adapters/' },
      to: { path: '^functions/', pathNot: '^functions/(platform|adapters)/' },
    },
    {
      name: 'areas-choose-no-adapter',
      severity: 'error',
      comment:
        'Adapters are chosen only by a composition module (functions/compose; tests may build their own).',
      from: { path: `^functions/${AREAS}/` },
      to: { path: '^functions/(adapters|compose|dev-runtime)/' },
    },
    {
      name: 'adapters-are-chosen-in-the-compositions',
      severity: 'error',
      comment:
        'The development runtimes and the CLIs ask a composition (functions/compose/aws.ts, local.ts) for ' +
        'their ports, and for the SDK clients the emulator tools use; they never pick an adapter themselves.',
      from: { path: '^(functions/dev-runtime|bin)/' },
      to: { path: '^functions/adapters/' },
    },
    {
      name: 'nothing-imports-the-dev-runtime',
      severity: 'error',
      comment: 'The development runtime is a composition root: nothing deployed may depend on it.',
      from: { path: '^functions/', pathNot: '^functions/dev-runtime/' },
      to: { path: '^functions/dev-runtime/' },
    },
    {
      name: 'events-depends-on-no-area',
      severity: 'error',
      comment: 'events/ (the catalog and publishing) is below every other area.',
      from: { path: '^functions/events/' },
      to: { path: `^functions/${AREAS}/`, pathNot: '^functions/events/' },
    },
    {
      name: 'areas-do-not-import-each-other',
      severity: 'error',
      comment: 'connectors, directory and webhooks are independent; they share only events/ and platform/.',
      from: { path: '^functions/(connectors|directory|webhooks)/' },
      to: { path: `^functions/${AREAS}/`, pathNot: ['^functions/$1/', '^functions/events/'] },
    },
    {
      name: 'only-the-docs-read-the-route-table',
      severity: 'error',
      comment: 'The route table composes every area; only the OpenAPI generator (docs) reads it back.',
      from: { path: `^functions/${AREAS}/`, pathNot: '^functions/docs/' },
      to: { path: '^functions/routes\\.ts$' },
    },
    {
      name: 'other-areas-through-their-index',
      severity: 'error',
      comment: 'Another area is reached through its public face (index.ts), never the files behind it.',
      from: { path: `^functions/${AREAS}/` },
      to: {
        path: `^functions/${AREAS}/`,
        pathNot: ['^functions/$1/', `^functions/${AREAS}/index\\.ts$`],
      },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'domain/ holds rules and types: no use case, handler or infrastructure.',
      from: { path: `^functions/${AREAS}/domain/` },
      to: { path: `^functions/${AREAS}/(app|api|infra)/` },
    },
    {
      name: 'provider-modules-are-below-the-use-cases',
      severity: 'error',
      comment:
        'A provider module (connectors/providers/<id>/) is its definition and its client: it is built on ' +
        'the shared transport and contracts (infra/content/) and domain types, and knows no use case or route.',
      from: { path: '^functions/connectors/providers/' },
      to: { path: '^functions/connectors/(app|api)/' },
    },
    {
      name: 'app-does-not-know-the-edge',
      severity: 'error',
      comment:
        'Use cases do not import routes, schemas or handlers of the HTTP/SQS edge. The one exception is ' +
        'api/views.ts (the API resources a use case answers with; docs/decisions.md, issue 22): app/ may ' +
        'name it, infra/ may not.',
      from: { path: `^functions/${AREAS}/(app|infra)/` },
      to: { path: `^functions/${AREAS}/api/`, pathNot: `^functions/${AREAS}/api/views\\.ts$` },
    },
    {
      name: 'infra-does-not-know-the-views',
      severity: 'error',
      from: { path: `^functions/${AREAS}/infra/` },
      to: { path: `^functions/${AREAS}/api/views\\.ts$` },
    },
    {
      name: 'views-are-the-edge-of-the-api',
      severity: 'error',
      comment:
        'The views shape records for the API: they read domain/ and platform/, never a use case or handler.',
      from: { path: `^functions/${AREAS}/api/views\\.ts$` },
      to: { path: `^functions/${AREAS}/(app|infra|api)/`, pathNot: `^functions/${AREAS}/api/views\\.ts$` },
    },
    {
      name: 'infra-uses-no-use-case',
      severity: 'error',
      from: { path: `^functions/${AREAS}/infra/` },
      to: { path: `^functions/${AREAS}/app/` },
    },
    {
      name: 'aws-sdk-only-in-the-aws-adapters',
      severity: 'error',
      comment: 'Core and handlers never talk to AWS directly: only functions/adapters/aws does.',
      from: { path: '^functions/', pathNot: '^functions/(adapters/aws|dev-runtime/emulated-aws)/' },
      to: {
        path: '@aws-sdk/',
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'],
      },
    },
    {
      name: 'deployed-code-uses-no-dev-dependency',
      severity: 'error',
      from: { path: '^functions/', pathNot: '^functions/dev-runtime/' },
      to: { dependencyTypes: ['npm-dev'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    exclude: { path: '(^|/)(node_modules|cdk\\.out|\\.build)/' },
  },
};
