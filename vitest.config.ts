import { defineConfig } from 'vitest/config';
import path from 'node:path';

// Unit tests are pure and fast; integration tests (*.int.test.ts) get a throwaway
// Postgres database from test/global-db.ts. Both run in forked processes with
// --no-node-snapshot because isolated-vm isolates need it (ENVIRONMENT.md).
const shared = {
  pool: 'forks' as const,
  execArgv: ['--no-node-snapshot'],
};

export default defineConfig({
  // `server-only` throws outside React Server Components; tests run server modules directly
  resolve: {
    alias: [
      { find: '@', replacement: path.resolve(import.meta.dirname) },
      { find: 'server-only', replacement: path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js') },
      // next-auth imports `next/server` etc. without the extension Node's ESM resolver needs
      { find: /^next\/(server|headers|navigation)$/, replacement: path.resolve(import.meta.dirname, 'node_modules/next/$1.js') },
    ],
  },
  test: {
    // run next-auth through Vite so that the alias above applies to its imports
    server: { deps: { inline: ['next-auth'] } },
    projects: [
      {
        extends: true,
        test: {
          ...shared,
          name: 'unit',
          include: ['lib/**/*.test.ts', 'scripts/**/*.test.ts', 'bin/**/*.test.ts', 'cli/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', 'node_modules/**'],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          ...shared,
          name: 'integration',
          include: ['**/*.int.test.ts'],
          exclude: ['node_modules/**'],
          globalSetup: ['test/global-db.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
