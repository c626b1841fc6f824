// Downloads one version of a skill from the registry and checks it before anything uses
// it: the tarball's sha512 integrity, the registry's signed statement about those bytes
// (statement-check.ts), and a Rye signature against the trusted keys.
// `skillyard add` writes the files into a skills folder; `skillyard mcp --skill @scope/name`
// serves them.
import { readSkillsFromFiles } from '../lib/skills';
import { checkIntegrity } from '../lib/registry/package-tarball';
import { readUpload } from '../lib/registry/read-upload';
import { defaultKeysDir, loadTrustedKeys } from './keys';
import { registryClient, RegistryError } from './registry-client';
import { checkStatement, type StatementCheck } from './statement-check';

export type PackageRef = { scope: string; name: string; spec: string | null };

export type FetchedPackage = {
  label: string;
  /** the exact version's tarball URL (what skillyard.lock records) */
  resolved: string;
  version: string;
  integrity: string;
  files: ReturnType<typeof readUpload>['files'];
  manifest: ReturnType<typeof readSkillsFromFiles>['skills'][number] | undefined;
  deprecated: string | null;
  yanked: boolean;
  /** the key id of the registry statement the bytes were checked against (null: none served) */
  statementKey: string | null;
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

/** The exact version's tarball URL on `base`. */
export function tarballUrl(base: string, ref: { scope: string; name: string }, version: string): string {
  return `${base}/api/v1/skills/${ref.scope}/${ref.name}/${encodeURIComponent(version)}/tarball`;
}

export async function fetchPackage(ref: PackageRef, opts: { registry?: string; keys?: string[]; warn?: (line: string) => void } = {}): Promise<FetchedPackage> {
  const client = registryClient({ registry: opts.registry });
  return download(client, `/api/v1/skills/${ref.scope}/${ref.name}/${encodeURIComponent(ref.spec ?? 'latest')}/tarball`, ref, null, opts);
}

/**
 * Downloads a locked tarball URL and checks its bytes against the lock's integrity
 * (`install/integrity-mismatch` when they differ, whatever the registry says now).
 */
export async function fetchLocked(resolved: string, ref: PackageRef, integrity: string, opts: { keys?: string[]; warn?: (line: string) => void } = {}): Promise<FetchedPackage> {
  let url: URL;
  try {
    url = new URL(resolved);
  } catch {
    throw new FetchError('lock/invalid', `@${ref.scope}/${ref.name}: the lock's resolved URL "${resolved}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new FetchError('lock/invalid', `@${ref.scope}/${ref.name}: the lock's resolved URL is not http(s)`);
  const client = registryClient({ registry: url.origin });
  return download(client, url.pathname + url.search, ref, integrity, opts);
}

async function download(
  client: ReturnType<typeof registryClient>,
  p: string,
  ref: PackageRef,
  expected: string | null,
  opts: { keys?: string[]; warn?: (line: string) => void },
): Promise<FetchedPackage> {
  let res: Response;
  try {
    res = await client.request(p);
  } catch (e) {
    if (e instanceof RegistryError) throw new FetchError(e.code, `@${ref.scope}/${ref.name}: ${e.message} [${e.code}]`);
    throw e;
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  const integrity = res.headers.get('x-skillyard-integrity') ?? '';
  const version = res.headers.get('x-skillyard-version') ?? '?';
  const label = `@${ref.scope}/${ref.name}@${version}`;
  if (expected !== null && !checkIntegrity(bytes, expected)) {
    throw new FetchError('install/integrity-mismatch', `${label}: the download does not match the lock's integrity ${expected}; nothing was written`);
  }
  if (!integrity || !checkIntegrity(bytes, integrity)) {
    throw new FetchError('add/integrity-mismatch', `${label}: the download does not match its integrity ${integrity || '(none sent)'}; nothing was written`);
  }
  // the registry's signed statement must name these very bytes (docs/trust.md)
  let statement: StatementCheck;
  try {
    statement = await checkStatement(client, ref, version, bytes);
  } catch (e) {
    if (e instanceof RegistryError) throw new FetchError(e.code, `${label}: cannot check its signed statement: ${e.message} [${e.code}]`);
    throw e;
  }
  if (statement.checked && !statement.ok) throw new FetchError(statement.code, `${label}: its signed statement does not verify: ${statement.reason}; nothing was written`);
  if (!statement.checked) opts.warn?.(`warning: ${label}: not checked against a signed statement: ${statement.reason}`);
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
    resolved: tarballUrl(client.base, ref, version),
    version,
    integrity,
    files: pkg.files,
    manifest,
    deprecated: deprecated ? decodeURIComponent(deprecated) : null,
    yanked: Boolean(res.headers.get('x-skillyard-yanked')),
    statementKey: statement.checked && statement.ok ? statement.key.kid : null,
  };
}
