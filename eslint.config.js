// @ts-check
const tseslint = require('typescript-eslint');
const importX = require('eslint-plugin-import-x');
const prettier = require('eslint-config-prettier');
const reactHooks = require('eslint-plugin-react-hooks');

const { builtinModules } = require('node:module');
const { importAllowed, readLayerTable } = require('./scripts/layer-table.js');

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

const DETERMINISM =
  'Workflow code is replayed by Temporal, so it must be deterministic: it imports by value only @temporalio/workflow, workflows/ files and pure/ (anything else as `import type`), and reaches no I/O, environment or clock of its own.';

/**
 * Workflow code is replayed by Temporal, so it imports by value only the workflow SDK, its own files and pure/ (the
 * deterministic helpers); everything else it may import only as types (`import type`). docs/layout.md. `depth` is how
 * far below workflows/ the file sits: a file in workflows/sub/ imports workflows/ files as `../x` and pure/ as
 * `../../pure/x`, never a path that leaves workflows/.
 */
const workflowImports = (depth) => {
  const down = '(?:[^./][^/]*/)*[^./][^/]*$';
  const up = depth === 0 ? [] : [`(?:\\.\\./){1,${depth}}${down}`];
  return onlyAllow(
    [
      '@temporalio/workflow$',
      // The SDK's OpenTelemetry workflow interceptors are workflow code of the SDK's own, made for the sandbox.
      '@temporalio/interceptors-opentelemetry/lib/workflow$',
      `\\./${down}`,
      ...up,
      `(?:\\.\\./){${depth + 1}}pure/[^/]+$`,
    ],
    DETERMINISM,
  );
};

/** What workflow code may not reach without an import: I/O, the environment, and modules loaded at run time. */
const workflowGlobals = ['process', 'fetch', 'Buffer', 'require', 'module', '__dirname', '__filename'].map((name) => ({
  name,
  message: DETERMINISM,
}));

/** One config block per depth below workflows/ (the relative paths that stay inside it differ with the depth). */
const workflowBlocks = [0, 1, 2, 3].map((depth) => ({
  files: [`workflows/${'*/'.repeat(depth)}*.ts`],
  ignores: ['**/*.test.ts'],
  rules: {
    'no-restricted-imports': 'off',
    '@typescript-eslint/no-restricted-imports': ['error', workflowImports(depth)],
    'no-restricted-globals': ['error', ...workflowGlobals],
    'no-restricted-syntax': [
      'error',
      { selector: 'ImportExpression', message: `import() loads a module at run time. ${DETERMINISM}` },
    ],
  },
}));

/** pure/ is what workflow code may import, so it imports nothing with side effects itself. */
const pureImports = onlyAllow(
  ['@temporalio/(?:common|workflow)$', '\\./[^/]+$'],
  'pure/ imports by value only its own files and @temporalio/common or @temporalio/workflow; anything else as `import type`.',
);

/**
 * The layer table of docs/layout.md (read from the page by scripts/layer-table.js, as test/lint/folder-graph.test.ts
 * reads it), checked on every import, type imports included: one zone per folder, naming every folder it may not
 * import. Tools (stack/, cli/, bench/) and tests may import anything.
 */
const layers = readLayerTable();
const allFolders = layers.flatMap((layer) => layer.folders);
const dirs = (...names) => names.map((name) => `./${name}`);
const layerZones = layers
  .filter((layer) => layer.mayImport !== 'anything')
  .flatMap((layer) =>
    layer.folders.map((folder) => ({
      target: dirs(folder),
      from: dirs(...allFolders.filter((other) => !importAllowed(layers, folder, other))),
      message: `docs/layout.md: ${layer.name} (${folder}/) may import ${layer.mayImport.join(', ') || 'libraries only'}`,
    })),
  )
  .filter((zone) => zone.from.length > 0);

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
  ...workflowBlocks,
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
