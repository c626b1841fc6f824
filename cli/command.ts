/** One `skillyard <name>` command. Register it in cli/commands/index.ts. */
export type Command = {
  name: string;
  /** one line for `skillyard --help` */
  summary: string;
  /** full usage text for `skillyard <name> --help` */
  usage: string;
  /** returns the exit code: 0 ok, 1 failure, 2 usage error */
  run(argv: string[]): Promise<number>;
};

/** A registered command: what `--help` lists, and how to load the command itself. */
export type CommandEntry = {
  name: string;
  /** one line for `skillyard --help` (the same as the command's own summary) */
  summary: string;
  load(): Promise<Command>;
  /** the command creates isolated-vm isolates (bin/skillyard.mjs starts Node with --no-node-snapshot) */
  isolates?: boolean;
};

/** Thrown by a command for a usage error (exit 2, usage printed). */
export class UsageError extends Error {}
