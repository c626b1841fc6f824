// Stores one immutable version of a skill: the manifest, every file, the .tar.gz with
// its integrity, the scan findings, the changelog and one row per tool; moves a
// dist-tag. A version number is never overwritten or reused (UsedVersionNumber keeps
// every number ever published, even after a yank or a deletion).
import 'server-only';
import crypto from 'node:crypto';
import semver from 'semver';
import { isAsciiSkillName, type SkillManifest } from '../skills';
import type { Db } from '../db';
import { AppError } from '../errors';
import { scanPackage, isBlockingFinding, type ScanFinding } from './scan-package';
import type { PackageFile } from './package-tarball';
import { packageStoreFor, STATEMENT_BYTES } from './package-store';
import { packPackageOffThread } from './upload-reader';
import { formatDiagnostics } from './read-upload';
import { recordSearchWords, refreshSkillSearch } from './refresh-skill-search';
import { isValidDistTag } from './dist-tag-name';
import { queueEvidence, wakeEvidenceWorkers } from '../evidence';
import type { VersionProvenanceInput } from './version-provenance';

export type { PackageFile };

export type PublishInput = {
  scope: string;
  manifest: SkillManifest;
  files: PackageFile[];
  /** semver; defaults to the manifest's own version */
  version?: string | null;
  /** dist-tag to point at this version; default `latest` (`next` for a prerelease) */
  tag?: string;
  changelog?: string | null;
  visibility?: 'public' | 'unlisted' | 'private';
  publishedById?: string | null;
  /** scanPackage(files), when the caller already has it (a publish after its preview) */
  findings?: ScanFinding[];
  /** where the version came from, when a trusted publisher's CI publishes it */
  provenance?: VersionProvenanceInput | null;
};

export type PublishedVersion = {
  skillId: string;
  versionId: string;
  scope: string;
  name: string;
  version: string;
  tag: string;
  /** whether `tag` now points at this version (a lower version does not take `latest`) */
  tagged: boolean;
  contentHash: string;
  integrity: string;
  sizeBytes: number;
  findings: ScanFinding[];
};

export { contentHash } from './package-tarball';

const BATCH_FILES = 200;

/** Files in order, in batches of at most BATCH_FILES and about STATEMENT_BYTES (a larger file is a batch of its own). */
export function fileBatches(files: PackageFile[]): PackageFile[][] {
  const batches: PackageFile[][] = [];
  let batch: PackageFile[] = [];
  let bytes = 0;
  for (const f of files) {
    if (batch.length > 0 && (bytes + f.content.byteLength > STATEMENT_BYTES || batch.length >= BATCH_FILES)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(f);
    bytes += f.content.byteLength;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** The version number a publish will use, or an error that says why there is none. */
export function publishableVersion(requested: string | null | undefined, manifest: SkillManifest): string {
  const v = (requested ?? manifest.version ?? '').trim();
  if (!v) {
    throw new AppError('publish/version-required', `${manifest.name} has no version; give one (skillyard publish --version 1.0.0, or "version" in its metadata).`);
  }
  if (semver.valid(v) !== v) {
    throw new AppError('publish/invalid-version', `"${v.slice(0, 64)}" is not a semantic version like 1.2.3 or 2.0.0-beta.1.`);
  }
  return v;
}

/** The changelog of one version: given text, or that version's section of CHANGELOG.md. */
export function changelogFor(version: string, files: PackageFile[], given?: string | null): string | null {
  if (given?.trim()) return given.trim().slice(0, 20_000);
  const file = files.find((f) => /^(CHANGELOG|CHANGES|HISTORY)\.md$/i.test(f.path));
  if (!file) return null;
  const text = new TextDecoder().decode(file.content);
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^#{1,3}\s/.test(l) && l.includes(version) && new RegExp(`(^|[^0-9.])v?${version.replace(/[.+]/g, '\\$&')}([^0-9.]|$)`).test(l));
  if (start < 0) return null;
  const level = /^(#+)/.exec(lines[start])![1].length;
  let end = lines.length;
  for (let i = start + 1; i < lines.length; i++) {
    const m = /^(#+)\s/.exec(lines[i]);
    if (m && m[1].length <= level) {
      end = i;
      break;
    }
  }
  return (
    lines
      .slice(start + 1, end)
      .join('\n')
      .trim()
      .slice(0, 20_000) || null
  );
}

/** a version's id: 128 random bits (it names the version's object in an object store) */
const newVersionId = () => crypto.randomBytes(16).toString('hex');

export async function publishVersion(db: Db, input: PublishInput): Promise<PublishedVersion> {
  const { manifest, scope } = input;
  const errors = manifest.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    throw new AppError('publish/invalid-skill', `${manifest.name} has errors; nothing was published:\n${formatDiagnostics(errors)}`);
  }
  if (!isAsciiSkillName(manifest.name)) {
    throw new AppError(
      'publish/name-not-ascii',
      `"${manifest.name.slice(0, 64)}" is a valid Agent Skills name, but registry names (in URLs) are a-z, 0-9 and single hyphens: rename the skill to publish it. Nothing was published.`,
    );
  }
  const version = publishableVersion(input.version, manifest);
  const explicitTag = input.tag !== undefined;
  const tag = input.tag ?? (semver.prerelease(version) ? 'next' : 'latest');
  if (!isValidDistTag(tag)) {
    throw new AppError('publish/invalid-tag', `"${tag.slice(0, 64)}" is not a dist-tag: letters, digits, '-', '.', '_', not a version or range.`);
  }
  const findings = input.findings ?? scanPackage(input.files);
  const blocking = findings.filter(isBlockingFinding);
  if (blocking.length) {
    const where = blocking
      .slice(0, 10)
      .map((f) => `${f.file}:${f.line}: ${f.message} [${f.rule}]`)
      .join('\n');
    throw new AppError(
      'publish/blocked-by-scan',
      `The scan found ${blocking.length} secret${blocking.length > 1 ? 's' : ''}; remove ${blocking.length > 1 ? 'them' : 'it'} and publish again. Nothing was published:\n${where}`,
    );
  }
  // gzip at level 9 and two hashes over up to 50 MB: seconds of CPU, off the event loop
  const { contentHash: hash, tarball, integrity } = await packPackageOffThread(input.files, manifest.name);
  const sizeBytes = input.files.reduce((n, f) => n + f.content.byteLength, 0);
  const tags = Array.from(new Set(manifest.tools.flatMap((t) => t.tags))).slice(0, 32);
  const changelog = changelogFor(version, input.files, input.changelog);
  const exists = () =>
    new AppError(
      'publish/version-exists',
      `@${scope}/${manifest.name}@${version} was published before; version numbers are never reused (even after a yank or a deletion): publish a new version.`,
    );

  // The bytes go to the configured store (package-store/): inside the transaction for
  // Postgres; an object store is written first, under an id chosen here, and its object
  // removed again if the transaction fails (a version row never names missing bytes).
  const store = packageStoreFor(db);
  const attempt = async () => {
    const versionId = newVersionId();
    if (store.kind !== 'postgres') await store.put(versionId, tarball);
    try {
      return await inTransaction(versionId);
    } catch (err) {
      if (store.kind !== 'postgres') await store.remove(versionId).catch(() => {});
      throw err;
    }
  };
  const inTransaction = (versionId: string) =>
    db.$transaction(
      async (tx) => {
        // The primary key decides between two concurrent publishes of one number: the
        // second waits for the first and then fails here.
        try {
          await tx.usedVersionNumber.create({ data: { scopeName: scope, name: manifest.name, version } });
        } catch (err) {
          if ((err as { code?: string }).code === 'P2002') throw exists();
          throw err;
        }
        const skill = await tx.skill.upsert({
          where: { scopeName_name: { scopeName: scope, name: manifest.name } },
          create: {
            scopeName: scope,
            name: manifest.name,
            description: manifest.description,
            format: manifest.format,
            visibility: input.visibility ?? 'public',
            tags,
          },
          update: {},
          select: { id: true },
        });
        const created = await tx.skillVersion.create({
          data: {
            id: versionId,
            skillId: skill.id,
            version,
            manifest: manifest as object,
            contentHash: hash,
            integrity,
            changelog,
            findings: findings as object[],
            sizeBytes,
            publishedById: input.publishedById ?? null,
            tools: {
              create: manifest.tools.map((t) => ({
                name: t.name,
                description: t.description,
                manifest: t as object,
                capabilities: t.capabilities,
                tokenGated: Object.keys(t.inputTokens).length > 0,
              })),
            },
          },
          select: { id: true },
        });
        // The tarball in parts and the files in batches of about a megabyte: encoding a
        // statement's parameters holds the event loop (27 MB of files in one statement held
        // it ~370 ms), and between two statements every other request gets its turn.
        if (store.kind === 'postgres') await store.put(created.id, tarball, tx);
        // the publish-time run of its examples (lib/evidence), and where it came from
        await queueEvidence(tx, created.id);
        if (input.provenance) await tx.versionProvenance.create({ data: { versionId: created.id, ...input.provenance } });
        for (const batch of fileBatches(input.files)) {
          await tx.skillFile.createMany({
            data: batch.map((f) => ({ versionId: created.id, path: f.path, content: Buffer.from(f.content), size: f.content.byteLength })),
          });
        }
        // `latest` by default moves only forward: publishing a fix to an old line (1.4.1
        // after 2.0.0) does not make it the latest. An explicit tag always moves.
        const current = await tx.distTag.findUnique({
          where: { skillId_tag: { skillId: skill.id, tag } },
          select: { version: { select: { version: true, yankedAt: true } } },
        });
        const tagged = explicitTag || !current || current.version.yankedAt !== null || semver.gt(version, current.version.version);
        if (tagged) {
          await tx.distTag.upsert({
            where: { skillId_tag: { skillId: skill.id, tag } },
            create: { skillId: skill.id, tag, versionId: created.id },
            update: { versionId: created.id },
          });
        }
        if (tagged && tag === 'latest') {
          await tx.skill.update({
            where: { id: skill.id },
            data: {
              latestVersionId: created.id,
              description: manifest.description,
              format: manifest.format,
              tags,
              publishedAt: new Date(),
              ...(input.visibility ? { visibility: input.visibility } : {}),
            },
          });
          await refreshSkillSearch(tx, skill.id);
        } else if (input.visibility) {
          await tx.skill.update({ where: { id: skill.id }, data: { visibility: input.visibility } });
        }
        return {
          skillId: skill.id,
          versionId: created.id,
          scope,
          name: manifest.name,
          version,
          tag,
          tagged,
          contentHash: hash,
          integrity,
          sizeBytes,
          findings,
        };
      },
      // a 50 MB package is many batches: more than the default 5 s on a loaded machine
      { timeout: 60_000 },
    );
  let out: PublishedVersion;
  try {
    out = await attempt();
  } catch (err) {
    // two first publishes of one new skill collide on the skill's unique key: the retry
    // sees the other's rows and answers as usual (version-exists for the same number)
    if ((err as { code?: string }).code !== 'P2002') throw err;
    out = await attempt();
  }
  if (out.tagged && out.tag === 'latest') await recordSearchWords(db, out.skillId);
  wakeEvidenceWorkers();
  return out;
}
