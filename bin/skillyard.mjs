#!/usr/bin/env node
// skillyard CLI entry. Commands that create isolated-vm isolates need Node started
// with --no-node-snapshot, so re-exec once with it; then load the TypeScript CLI
// through tsx.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (!process.execArgv.includes('--no-node-snapshot')) {
  const r = spawnSync(process.execPath, ['--no-node-snapshot', ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.error) {
    console.error(`skillyard: cannot start node: ${r.error.message}`);
    process.exit(1);
  }
  if (r.signal) process.kill(process.pid, r.signal);
  process.exit(r.status ?? 1);
}

const { register } = await import('tsx/esm/api');
register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
