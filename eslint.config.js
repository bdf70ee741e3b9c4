// @ts-check
const tseslint = require('typescript-eslint');
const importX = require('eslint-plugin-import-x');
const prettier = require('eslint-config-prettier');

/** Workflow code is replayed by Temporal, so it may not reach I/O, clocks or our side-effecting modules. */
const workflowRestrictions = {
  patterns: [
    { group: ['node:*'], message: 'Workflow code must not import Node built-ins (determinism).' },
    { group: ['pg', 'ioredis', 'fastify', 'fastify/*', '@fastify/*', 'openai'], message: 'Workflow code does no I/O.' },
    {
      group: ['../activities/*', '../activities', '**/activities/**'],
      allowTypeImports: true,
      message: 'Import activities with `import type` and call them through proxyActivities.',
    },
    { group: ['../db/*', '../queue/*', '../api/*', '../stack/*'], message: 'Workflow code does no I/O.' },
  ],
  paths: [
    'fs',
    'path',
    'os',
    'crypto',
    'http',
    'https',
    'net',
    'child_process',
    'process',
    'events',
    'stream',
    'timers',
    'worker_threads',
    'dns',
    'url',
    'util',
  ].map((name) => ({ name, message: 'Workflow code must not import Node built-ins (determinism).' })),
};

module.exports = tseslint.config(
  // Plain-JS launchers (scripts/, bin/, configs) run before dependencies exist; they are kept small instead.
  { ignores: ['node_modules/', 'dist/', '.data/', '.temporal/', 'coverage/', '**/*.js'] },
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
      // Fastify plugins and interface implementations are async by contract even when they do not await.
      '@typescript-eslint/require-await': 'off',
    },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.js'] } }, 'import-x/ignore': ['node_modules'] },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', workflowRestrictions],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/unbound-method': 'off' },
  },
  prettier,
);
