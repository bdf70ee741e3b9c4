// @ts-check
const tseslint = require('typescript-eslint');
const importX = require('eslint-plugin-import-x');
const prettier = require('eslint-config-prettier');
const reactHooks = require('eslint-plugin-react-hooks');

const { builtinModules } = require('node:module');

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Every Node built-in, bare and with the `node:` scheme (`fs`, `node:fs`, `fs/promises`, `node:test`, …). */
const nodeBuiltins = [
  ...new Set(builtinModules.flatMap((name) => [name.replace(/^node:/, ''), `node:${name.replace(/^node:/, '')}`])),
];
const builtinPattern = `(?:${nodeBuiltins.map(escapeRegex).join('|')})$`;

/**
 * An allowlist as a restriction: every import whose specifier is not allowed (and not a Node built-in, which gets its
 * own message) is refused; `import type` of anything stays allowed, since types leave no code in the bundle.
 */
const onlyAllow = (allowed, message) => ({
  paths: nodeBuiltins.map((name) => ({
    name,
    allowTypeImports: true,
    message: 'Node built-ins are not deterministic (I/O, clocks, randomness) and are not in the workflow sandbox.',
  })),
  patterns: [{ regex: `^(?!${builtinPattern})(?!(?:${allowed.join('|')})).*`, allowTypeImports: true, message }],
});

/**
 * Workflow code is replayed by Temporal, so it imports by value only the workflow SDK, its own files and pure/ (the
 * deterministic helpers); everything else it may import only as types (`import type`). docs/layout.md.
 */
const workflowImports = onlyAllow(
  // The SDK's OpenTelemetry workflow interceptors are workflow code of the SDK's own, made for the sandbox.
  ['@temporalio/workflow$', '@temporalio/interceptors-opentelemetry/lib/workflow$', '\\./[^/]+$', '\\.\\./pure/[^/]+$'],
  'Workflow code imports by value only @temporalio/workflow, workflows/ files and pure/; anything else as `import type` (determinism).',
);

/** pure/ is what workflow code may import, so it imports nothing with side effects itself. */
const pureImports = onlyAllow(
  ['@temporalio/(?:common|workflow)$', '\\./[^/]+$'],
  'pure/ imports by value only its own files and @temporalio/common or @temporalio/workflow; anything else as `import type`.',
);

/**
 * The layers of docs/layout.md, checked on every import (type imports included): a folder may import only from
 * its own layer's lower neighbours and the layers below it. Composition roots (stack/), the CLI, benches and tests
 * may import anything.
 */
const LAYERS = {
  edge: ['api', 'auth', 'chat', 'console'],
  application: ['jobs'],
  domain: ['routing', 'scenarios', 'events', 'kb', 'connectors', 'chat-relay', 'capabilities', 'products'],
  infrastructure: ['db', 'queue', 'http', 'config', 'metrics', 'secrets', 'telemetry'],
  temporal: ['workflows', 'pure', 'activities', 'temporal'],
  tools: ['stack', 'cli', 'bench'],
};
const dirs = (...names) => names.map((name) => `./${name}`);
const zone = (targets, from, message) => ({ target: dirs(...targets), from: dirs(...from), message });
const layerZones = [
  ...LAYERS.edge.map((edge) =>
    zone(
      [...LAYERS.edge.filter((other) => other !== edge), ...LAYERS.application, ...LAYERS.domain],
      [edge],
      'an edge is imported only by composition roots (stack/), the CLI, benches and tests',
    ),
  ),
  zone(
    [...LAYERS.infrastructure, ...LAYERS.temporal],
    LAYERS.edge,
    'an edge is imported only by composition roots (stack/), the CLI, benches and tests',
  ),
  zone(
    [...LAYERS.edge, ...LAYERS.application, ...LAYERS.domain, ...LAYERS.infrastructure, ...LAYERS.temporal],
    LAYERS.tools,
    'tools (stack/, cli/, bench/) are entry points; nothing imports them',
  ),
  zone(
    [...LAYERS.domain, ...LAYERS.infrastructure],
    LAYERS.application,
    'the application layer (jobs/) is called from above, never from below',
  ),
  zone(LAYERS.infrastructure, LAYERS.domain, 'infrastructure does not know the domain'),
  zone(
    [...LAYERS.domain, ...LAYERS.infrastructure],
    ['activities', 'temporal', 'workflows'],
    'domain and infrastructure code does not depend on the Temporal layer',
  ),
];

module.exports = tseslint.config(
  // Plain-JS launchers and checks (scripts/, bin/, deploy/, configs) run before dependencies exist; they are kept small instead.
  { ignores: ['node_modules/', 'dist/', '.data/', '.temporal/', 'coverage/', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: __dirname },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      // Fastify plugins and interface implementations are async by contract even when they do not await.
      '@typescript-eslint/require-await': 'off',
    },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.js'] } }, 'import-x/ignore': ['node_modules'] },
  },
  {
    files: ['workflows/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', workflowImports],
    },
  },
  {
    files: ['pure/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', pureImports],
    },
  },
  {
    // The console's browser code (its own tsconfig: DOM, JSX, bundler resolution) keeps React's rules of hooks.
    files: ['console/web/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/unbound-method': 'off', 'import-x/no-restricted-paths': 'off' },
  },
  prettier,
);
