// The command list. Each command is loaded only when it runs, so `skillyard --help`
// loads no command module (and none of their dependencies). To add a command: create
// cli/commands/<name>.ts exporting a Command, and add one line here.

import type { CommandEntry } from '../command';

export const commands: CommandEntry[] = [
  { name: 'validate', summary: 'check skills in any supported format and print their manifests', load: async () => (await import('./validate')).validate },
  { name: 'run', summary: 'run a tool of a local skill through the full pipeline (no server)', load: async () => (await import('./run')).default, isolates: true },
  { name: 'agent', summary: 'run the agent loop on local skills and print its trace', load: async () => (await import('./agent')).agent, isolates: true },
  { name: 'mcp', summary: 'serve local or registry skills to any MCP client over stdio', load: async () => (await import('./mcp')).mcp, isolates: true },
  { name: 'sign', summary: 'sign Rye tool files with an Ed25519 key', load: async () => (await import('./sign')).sign },
  { name: 'keygen', summary: 'create an Ed25519 key pair for signing Rye tools', load: async () => (await import('./keygen')).keygen },
  { name: 'publish', summary: 'publish a skill to the registry as a new version', load: async () => (await import('./publish')).publish },
  { name: 'add', summary: 'download a skill from the registry into an agent or skills folder (and skillyard.lock)', load: async () => (await import('./add')).add },
  { name: 'install', summary: 'restore exactly the skills in skillyard.lock (integrity checked)', load: async () => (await import('./install')).install },
  { name: 'outdated', summary: 'list locked skills with newer versions', load: async () => (await import('./outdated')).outdated },
  { name: 'update', summary: 'update locked skills within their ranges, showing permission changes first', load: async () => (await import('./update')).update },
  { name: 'verify', summary: "check a version's signed statement and package digest", load: async () => (await import('./verify')).verify },
  { name: 'audit', summary: 'list locked versions that are yanked, deprecated or flagged by the scan', load: async () => (await import('./audit')).audit },
  { name: 'search', summary: 'search the registry', load: async () => (await import('./search')).search },
  { name: 'info', summary: "show a registry skill's details and versions", load: async () => (await import('./info')).info },
  { name: 'login', summary: 'sign this computer in to a registry (stores an API token)', load: async () => (await import('./login')).login },
  { name: 'whoami', summary: 'show who the CLI is signed in as', load: async () => (await import('./whoami')).whoami },
  { name: 'yank', summary: 'yank (or --undo) one published version', load: async () => (await import('./yank')).yank },
  { name: 'deprecate', summary: 'deprecate versions of a published skill (with a message)', load: async () => (await import('./deprecate')).deprecate },
  { name: 'dist-tag', summary: 'add, remove or list the tags of a skill (latest, next...)', load: async () => (await import('./dist-tag')).distTag },
  { name: 'logout', summary: 'revoke and forget the saved API token', load: async () => (await import('./logout')).logout },
];

/** Commands that create isolated-vm isolates (Node must start with --no-node-snapshot). */
export const ISOLATE_COMMANDS = commands.filter((c) => c.isolates).map((c) => c.name);
