// The versions of a registry skill `outdated` and `update` choose from: the highest one
// (never yanked) in the lock's range, and the `latest` dist-tag.
import semver from 'semver';
import { registryClient } from './registry-client';

type Versions = { versions: Array<{ version: string }>; distTags: Record<string, string> };

export type Candidates = { wanted: string | null; latest: string | null };

/** The registry a lock entry came from: the origin of its resolved URL. */
export function registryOf(resolved: string): string {
  return new URL(resolved).origin;
}

export async function candidates(ref: { scope: string; name: string }, range: string, registry: string): Promise<Candidates> {
  const client = registryClient({ registry });
  const out = await client.json<Versions>(`/api/v1/skills/${ref.scope}/${ref.name}/versions`);
  const all = out.versions.map((v) => v.version).filter((v) => semver.valid(v));
  return { wanted: semver.maxSatisfying(all, range), latest: out.distTags.latest ?? null };
}
