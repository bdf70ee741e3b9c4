/**
 * ESM-only packages (the identity service's lucia, openid-client and their dependencies, and the test OIDC
 * provider). Node 20.19+ loads them from compiled CommonJS through require(esm), but jest's module runtime
 * cannot (before Node 24.9), so jest compiles just these to CommonJS with the same swc transform.
 */
const ESM_PACKAGES = [
  ...['lucia', '@lucia-auth', '@oslojs', 'openid-client', 'oauth4webapi', 'jose'],
  // oidc-provider (tests only) and the ESM-only part of its dependency tree
  ...['oidc-provider', 'nanoid', 'quick-lru', 'got', '@sindresorhus', '@szmarczak', 'cacheable-lookup'],
  ...['cacheable-request', 'mimic-response', 'normalize-url', 'responselike', 'lowercase-keys'],
  ...['form-data-encoder', 'p-cancelable'],
  // the JSON-schema sampler the API fuzzer draws requests with
  'json-schema-faker',
  // the OpenAPI validator's reference resolver
  '@apidevtools/json-schema-ref-parser',
];

/** What both projects share: the transform, the module runtime and quiet logs. */
const project = {
  testEnvironment: 'node',
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/.data/', '/.temporal/'],
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/.data/'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } }],
    '^.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  // json-schema-faker exports only an `import` entry, which jest's resolver (require conditions) does not follow.
  moduleNameMapper: { '^json-schema-faker$': '<rootDir>/node_modules/json-schema-faker/dist/index.js' },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  setupFiles: ['<rootDir>/test/quiet-logs.ts'],
  // Each worker compiles a module once and reuses V8's code cache for it in its later test files.
  runtime: '<rootDir>/test/jest-code-cache-runtime.js',
};

/** Files that need the Temporal dev server, PostgreSQL, Redis or Chromium. */
const INTEGRATION = ['test/integration', 'test/browser', 'test/replay'];

/**
 * Two projects, both run by `npm test`. `unit`: the files beside their code and test/lint, which start no server
 * (`npm run test:unit` runs them alone, in seconds). `integration`: the files under test/integration, test/browser
 * and test/replay, which share one Temporal dev server and workflow bundle, started once per run by the project's
 * global set-up only when one of its files runs.
 */
module.exports = {
  testTimeout: 120_000,
  // Quiet by default: a passing run prints its summary and the slowest files; a failure prints its test, assertion and
  // stack. What the code under test logs is dropped (`npx jest --silent=false <file>` shows it while debugging).
  silent: true,
  // On a checkout with no timings of an earlier run, the slowest files start first.
  testSequencer: '<rootDir>/test/slowest-first-sequencer.js',
  reporters: [['summary', { summaryThreshold: 0 }], '<rootDir>/scripts/jest-slowest-suites.js'],
  projects: [
    {
      ...project,
      displayName: 'unit',
      testMatch: ['<rootDir>/**/*.test.ts'],
      testPathIgnorePatterns: [...project.testPathIgnorePatterns, ...INTEGRATION.map((dir) => `<rootDir>/${dir}/`)],
    },
    {
      ...project,
      displayName: 'integration',
      testMatch: INTEGRATION.map((dir) => `<rootDir>/${dir}/**/*.test.ts`),
      // Once per run: where the hub-owning suites' knowledge index lives, and the one Temporal dev server and workflow
      // bundle the files share (test/integration/shared-services.ts).
      globalSetup: '<rootDir>/test/global-setup.ts',
      globalTeardown: '<rootDir>/test/global-teardown.ts',
    },
  ],
};
