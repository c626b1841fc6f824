// Downloads one version of a skill from the registry and checks it before anything uses
// it: the tarball's sha512 integrity, and a Rye signature against the trusted keys.
// `skillyard add` writes the files into a skills folder; `skillyard mcp --skill @scope/name`
// serves them.
import { readSkillsFromFiles } from '../lib/skills';
import { checkIntegrity } from '../lib/registry/package-tarball';
import { readUpload } from '../lib/registry/read-upload';
import { defaultKeysDir, loadTrustedKeys } from './keys';
import { registryClient, RegistryError } from './registry-client';

export type PackageRef = { scope: string; name: string; spec: string | null };

export type FetchedPackage = {
  label: string;
  version: string;
  integrity: string;
  files: ReturnType<typeof readUpload>['files'];
  manifest: ReturnType<typeof readSkillsFromFiles>['skills'][number] | undefined;
  deprecated: string | null;
  yanked: boolean;
};

/** A failure with the CLI's error code (`add/integrity-mismatch`, a registry code...). */
export class FetchError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function fetchPackage(ref: PackageRef, opts: { registry?: string; keys?: string[]; warn?: (line: string) => void } = {}): Promise<FetchedPackage> {
  const client = registryClient({ registry: opts.registry });
  let res: Response;
  try {
    res = await client.request(`/api/v1/skills/${ref.scope}/${ref.name}/${encodeURIComponent(ref.spec ?? 'latest')}/tarball`);
  } catch (e) {
    if (e instanceof RegistryError) throw new FetchError(e.code, `${e.message} [${e.code}]`);
    throw e;
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  const integrity = res.headers.get('x-skillyard-integrity') ?? '';
  const version = res.headers.get('x-skillyard-version') ?? '?';
  const label = `@${ref.scope}/${ref.name}@${version}`;
  if (!integrity || !checkIntegrity(bytes, integrity)) {
    throw new FetchError('add/integrity-mismatch', `${label}: the download does not match its integrity ${integrity || '(none sent)'}; nothing was written`);
  }
  const pkg = readUpload({ kind: 'bytes', bytes });
  const { keys, problems } = loadTrustedKeys([defaultKeysDir(), ...(opts.keys ?? [])]);
  for (const p of problems) opts.warn?.(`warning: cannot read key ${p}`);
  const [manifest] = readSkillsFromFiles(pkg.files, { trustedKeys: keys, rootName: ref.name }).skills;
  if (manifest?.signature?.verified === false) {
    throw new FetchError('add/bad-signature', `${label}: its Rye signature does not verify (${manifest.signature.reason ?? 'bad signature'}); nothing was written`);
  }
  const deprecated = res.headers.get('x-skillyard-deprecated');
  return {
    label,
    version,
    integrity,
    files: pkg.files,
    manifest,
    deprecated: deprecated ? decodeURIComponent(deprecated) : null,
    yanked: Boolean(res.headers.get('x-skillyard-yanked')),
  };
}
