#!/usr/bin/env node
// skillyard CLI entry. Runs the compiled CLI (dist/cli/main.js, built by cli/build.ts:
// `npm run build:cli`, part of `npm run build` and `postinstall`), building it first
// when it is missing or older than a source it was built from. Only the commands that
// create isolated-vm isolates re-execute Node once with --no-node-snapshot; `--help`
// and the other commands start in one process with no TypeScript to transpile.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Keep in step with `isolates: true` in cli/commands/index.ts (cli/cli.test.ts checks).
const ISOLATE_COMMANDS = ['run', 'agent', 'mcp'];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
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

const built = path.join(root, 'dist', 'cli', 'main.js');

function stale() {
  if (!existsSync(built)) return true;
  if (!existsSync(path.join(root, 'cli', 'main.ts'))) return false; // an installed package: no sources
  try {
    const { builtAt, inputs } = JSON.parse(readFileSync(path.join(root, 'dist', 'cli', 'inputs.json'), 'utf8'));
    return inputs.some((p) => statSync(path.join(root, p), { throwIfNoEntry: false })?.mtimeMs > builtAt);
  } catch {
    return true;
  }
}

if (stale()) {
  try {
    const { register } = await import('tsx/esm/api');
    register();
    const { buildCli } = await import('../cli/build.ts');
    buildCli(root);
  } catch (e) {
    console.error(`skillyard: the CLI is not built and cannot be built here (${e.message}); run \`npm run build:cli\``);
    process.exit(1);
  }
}

const { main } = await import(pathToFileURL(built).href);
process.exitCode = await main(argv);
