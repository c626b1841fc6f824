// A stored version as a publish-time run needs it: scope, manifest and its code files.
import 'server-only';
import type { Db } from '../db';
import type { SkillManifest } from '../skills';

const CODE_ENDINGS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.md'];
const MAX_CODE_BYTES = 2 * 1024 * 1024;

export async function loadEvidenceInput(db: Db, versionId: string): Promise<{ scope: string; manifest: SkillManifest; files: Map<string, string> } | null> {
  const version = await db.skillVersion.findUnique({
    where: { id: versionId },
    select: { manifest: true, skill: { select: { scopeName: true } } },
  });
  if (!version) return null;
  const rows = await db.skillFile.findMany({
    where: { versionId, size: { lte: MAX_CODE_BYTES }, OR: CODE_ENDINGS.map((e) => ({ path: { endsWith: e } })) },
    select: { path: true, content: true },
  });
  const files = new Map(rows.map((r) => [r.path, Buffer.from(r.content).toString('utf8')]));
  return { scope: version.skill.scopeName, manifest: version.manifest as unknown as SkillManifest, files };
}
