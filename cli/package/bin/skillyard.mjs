#!/usr/bin/env node
// The published CLI's entry: runs dist/main.js (cli/build-package.mjs bundles it, with
// every dependency but isolated-vm and esbuild, into this package). The commands that
// run tools on this machine start Node once more with --no-node-snapshot, which
// isolated-vm needs.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ISOLATE_COMMANDS = ['run', 'agent', 'mcp'];
const argv = process.argv.slice(2);
const wantsHelp = argv.includes('--help') || argv.includes('-h');

if (ISOLATE_COMMANDS.includes(argv[0]) && !wantsHelp && !process.execArgv.includes('--no-node-snapshot')) {
  const r = spawnSync(process.execPath, ['--no-node-snapshot', ...process.execArgv, fileURLToPath(import.meta.url), ...argv], { stdio: 'inherit' });
  if (r.error) {
    console.error(`skillyard: cannot start node: ${r.error.message}`);
    process.exit(1);
  }
  if (r.signal) process.kill(process.pid, r.signal);
  process.exit(r.status ?? 1);
}

const { main } = await import('../dist/main.js');
process.exitCode = await main(argv);
