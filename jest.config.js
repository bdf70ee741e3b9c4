/** Unit tests sit beside their code; tests that need Temporal, PostgreSQL or Redis sit under test/integration. */
module.exports = {
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/.data/', '/.temporal/'],
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/.data/'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } }] },
  testTimeout: 120_000,
};
