// What changes in what a skill may do from a locked version to a newer one, in the plain
// words of lib/trust: the registry serves the diff of the two versions' full summaries
// (GET .../<to>/permissions?from=<from>), and the newer package's own declarations are
// compared with what the lock recorded, so a registry cannot hide a widening of either.
// `update` and `add` (of a locked skill) hold a widening back without --yes.
import type { SkillManifest } from '../lib/skills';
import type { PermissionDiff } from '../lib/trust';
import type { RegistryClient } from './registry-client';
import { RegistryError } from './registry-client';
import { diffPermissions, formatPermissionChanges, permissionsOf, type SkillPermissions } from './skill-permissions';

export type PermissionChange = { lines: string[]; widens: boolean };

type Served = { diff?: PermissionDiff };

export async function permissionChange(
  client: RegistryClient,
  ref: { scope: string; name: string },
  from: { version: string; permissions: SkillPermissions },
  to: { version: string; manifest: SkillManifest | undefined },
): Promise<PermissionChange> {
  const local = diffPermissions(from.permissions, permissionsOf(to.manifest));
  let served: PermissionDiff | null = null;
  try {
    const q = `/api/v1/skills/${ref.scope}/${ref.name}/${encodeURIComponent(to.version)}/permissions?from=${encodeURIComponent(from.version)}`;
    served = (await client.json<Served>(q)).diff ?? null;
  } catch (e) {
    // an older registry (no such route) or a locked version since deleted: the lock's record decides
    if (!(e instanceof RegistryError)) throw e;
  }
  const lines = served ? [...served.added.map((f) => `+ ${f.words}`), ...served.removed.map((f) => `- ${f.words}`)] : formatPermissionChanges(local.changes).map((l) => l.trim());
  // what the package declares beyond the lock's record, when the registry's diff did not say so
  if (served && local.widens && !served.widens) lines.push(...formatPermissionChanges(local.changes).map((l) => `${l.trim()} (per the package, against skillyard.lock)`));
  return { lines, widens: local.widens || (served?.widens ?? false) };
}
