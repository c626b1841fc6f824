// What a skill version may do, as `skillyard.lock` records it and `skillyard update`
// compares it: the capabilities its tools declare, the hosts `net` may reach, the token
// issuers its tools take or mint, and whether a handler runs as a subprocess (Python, bash).
import { allowedHostsOf, type SkillManifest } from '../lib/skills';

export type SkillPermissions = { capabilities: string[]; network: string[]; tokens: string[]; subprocess: boolean };

const sorted = (items: Iterable<string>) => [...new Set(items)].sort();

export function permissionsOf(manifest: SkillManifest | undefined): SkillPermissions {
  const tools = manifest?.tools ?? [];
  return {
    capabilities: sorted(tools.flatMap((t) => t.capabilities)),
    network: sorted(allowedHostsOf(manifest?.metadata)),
    tokens: sorted(tools.flatMap((t) => [...Object.keys(t.inputTokens), ...Object.keys(t.outputTokens)])),
    subprocess: tools.some((t) => t.handler.kind === 'python' || t.handler.kind === 'bash'),
  };
}

export type PermissionChange = { kind: 'capabilities' | 'network' | 'tokens' | 'subprocess'; added: string[]; removed: string[] };

/** What changes from `before` to `after`; `widens` when anything is added. */
export function diffPermissions(before: SkillPermissions, after: SkillPermissions): { changes: PermissionChange[]; widens: boolean } {
  const changes: PermissionChange[] = [];
  for (const kind of ['capabilities', 'network', 'tokens'] as const) {
    const added = after[kind].filter((x) => !before[kind].includes(x));
    const removed = before[kind].filter((x) => !after[kind].includes(x));
    if (added.length || removed.length) changes.push({ kind, added, removed });
  }
  if (before.subprocess !== after.subprocess) {
    changes.push({ kind: 'subprocess', added: after.subprocess ? ['runs subprocesses'] : [], removed: after.subprocess ? [] : ['runs subprocesses'] });
  }
  return { changes, widens: changes.some((c) => c.added.length > 0) };
}

/** `  + network api.example.com` / `  - capabilities storage` lines. */
export function formatPermissionChanges(changes: PermissionChange[]): string[] {
  return changes.flatMap((c) => [...c.added.map((x) => `  + ${c.kind} ${x}`), ...c.removed.map((x) => `  - ${c.kind} ${x}`)]);
}
