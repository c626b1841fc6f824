// Stores one immutable version of a skill: the manifest, every file, the content hash,
// the scan findings and one row per tool. A version is never overwritten or reused.
import crypto from 'node:crypto';
import type { SkillManifest } from '../skills/types';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { scanPackage, type ScanFinding } from './scan-package';

export type PackageFile = { path: string; content: Uint8Array };

export type PublishInput = {
  scope: string;
  manifest: SkillManifest;
  files: PackageFile[];
  version: string;
  visibility?: 'public' | 'unlisted' | 'private';
  publishedById?: string | null;
};

export type PublishedVersion = {
  skillId: string;
  versionId: string;
  scope: string;
  name: string;
  version: string;
  contentHash: string;
  findings: ScanFinding[];
};

/** SHA-256 over the sorted (path, content) pairs: equal packages hash equal. */
export function contentHash(files: PackageFile[]): string {
  const hash = crypto.createHash('sha256');
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(f.path).update('\0').update(String(f.content.byteLength)).update('\0').update(f.content);
  }
  return hash.digest('hex');
}

export async function publishVersion(db: Db, input: PublishInput): Promise<PublishedVersion> {
  const { manifest, scope, version } = input;
  if (manifest.diagnostics.some((d) => d.severity === 'error')) {
    throw new AppError('publish/invalid-skill', `${manifest.name} has errors; run \`skillyard validate\` to see them.`);
  }
  const hash = contentHash(input.files);
  const findings = scanPackage(input.files);
  const sizeBytes = input.files.reduce((n, f) => n + f.content.byteLength, 0);
  const tags = Array.from(new Set(manifest.tools.flatMap((t) => t.tags))).slice(0, 32);

  // Two publishes of the same skill at once can collide on a unique key; the retry then
  // sees the other's rows and answers as usual (for example version-exists).
  const attempt = () => db.$transaction(async (tx) => {
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
    });
    const existing = await tx.skillVersion.findUnique({
      where: { skillId_version: { skillId: skill.id, version } },
      select: { id: true },
    });
    if (existing) {
      throw new AppError(
        'publish/version-exists',
        `@${scope}/${manifest.name}@${version} already exists; versions are immutable, publish a new version.`,
      );
    }
    const created = await tx.skillVersion.create({
      data: {
        skillId: skill.id,
        version,
        manifest: manifest as object,
        contentHash: hash,
        findings: findings as object[],
        sizeBytes,
        publishedById: input.publishedById ?? null,
        files: {
          create: input.files.map((f) => ({ path: f.path, content: Buffer.from(f.content), size: f.content.byteLength })),
        },
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
    });
    await tx.skill.update({
      where: { id: skill.id },
      data: {
        latestVersionId: created.id,
        description: manifest.description,
        format: manifest.format,
        tags,
        ...(input.visibility ? { visibility: input.visibility } : {}),
      },
    });
    return {
      skillId: skill.id,
      versionId: created.id,
      scope,
      name: manifest.name,
      version,
      contentHash: hash,
      findings,
    };
  });
  try {
    return await attempt();
  } catch (err) {
    if ((err as { code?: string }).code !== 'P2002') throw err;
    return attempt();
  }
}
