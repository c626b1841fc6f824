// `skillyard <command> [...]`: dispatch to cli/commands/<name>.ts, loaded on demand.

import { commands } from './commands/index';
import { exitCodeFor, mapError } from '../lib/errors';
import { UsageError } from './command';
import { CLI_VERSION } from './version';
import { isolatedVmProblem } from './isolated-vm-check';

export function globalHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'skillyard: find, add, publish, validate and run AI-agent skills',
    '',
    'Usage: skillyard <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run `skillyard <command> --help` for a command's options.",
  ].join('\n');
}

/** `skillyard validate --json | head`: the reader went away; stop quietly, as Unix tools do. */
function stopQuietlyOnClosedPipe(): void {
  if (process.stdout.listenerCount('error') > 0) return;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

export async function main(argv: string[]): Promise<number> {
  stopQuietlyOnClosedPipe();
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    if (name === 'help' && rest[0]) return main([rest[0], '--help']);
    (name ? process.stdout : process.stderr).write(globalHelp() + '\n');
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`skillyard ${CLI_VERSION}\n`);
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    process.stderr.write(`skillyard: unknown command "${name}"\n\n${globalHelp()}\n`);
    return 2;
  }
  // run/agent load isolated-vm when their module loads: where it cannot load, one line
  // that says what to do instead of a stack (mcp decides for itself: it can run on the registry)
  if (entry.isolates && entry.name !== 'mcp' && !rest.includes('--help') && !rest.includes('-h')) {
    const problem = await isolatedVmProblem();
    if (problem) {
      process.stderr.write(`skillyard ${name}: ${problem}\n`);
      return 1;
    }
  }
  const cmd = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(cmd.usage.trimEnd() + '\n');
    return 0;
  }
  try {
    return await cmd.run(rest);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string })?.code?.startsWith?.('ERR_PARSE_ARGS')) {
      process.stderr.write(`skillyard ${name}: ${(e as Error).message}\n\n${cmd.usage.trimEnd()}\n`);
      return 2;
    }
    // A coded error is a failure the user can act on: one line, the exit status its code
    // gives (lib/errors). Anything else is a bug: its stack, exit 1.
    const mapped = mapError(e);
    if (mapped.expected) {
      process.stderr.write(`skillyard ${name}: ${mapped.message}\n`);
      return exitCodeFor(mapped.code);
    }
    process.stderr.write(`skillyard ${name}: ${(e as Error)?.stack ?? String(e)}\n`);
    return 1;
  }
}
