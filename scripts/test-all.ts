// `npm test`: types, lint (eslint.config.mjs, lib/) and format (Prettier, .prettierrc.json), unit tests, integration tests on a real Postgres, then Chromium tests
// against the built app. Stops at the first kind that fails.
import { spawnSync } from 'node:child_process';

const steps: Array<[string, string[]]> = [
  ['typecheck', ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.']],
  ['lint', ['node_modules/eslint/bin/eslint.js', 'lib']],
  ['format', ['node_modules/prettier/bin/prettier.cjs', '--check', '.', '--log-level', 'warn']],
  ['unit tests', ['node_modules/vitest/vitest.mjs', 'run', '--project', 'unit']],
  ['integration tests', ['node_modules/vitest/vitest.mjs', 'run', '--project', 'integration']],
  ['browser tests', ['node_modules/@playwright/test/cli.js', 'test']],
];

const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
for (const [name, args] of steps) {
  if (only.length && !only.some((o) => name.startsWith(o))) continue;
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status === 0) {
    passed++;
    console.log(`=== ${name}: passed in ${seconds} s ===`);
  } else {
    failed++;
    console.log(`=== ${name}: FAILED (exit ${result.status ?? result.signal}) after ${seconds} s ===`);
    break;
  }
}
console.log(`\nsteps: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
