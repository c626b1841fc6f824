// Moves every version's bytes from one store to another (`npm run packages:move`): copy,
// read back and check against the integrity the database holds, then remove from the
// source. A version already in the target is only removed from the source. Safe to run
// again after an interruption, and while the server serves (reads fall back to Postgres).
import 'server-only';
import crypto from 'node:crypto';
import type { Db } from '../../db';
import { readAll } from './read-all';
import type { PackageStore } from './types';

export type MoveResult = { moved: number; alreadyThere: number; missing: number; failed: Array<{ versionId: string; reason: string }> };

const integrityOf = (bytes: Uint8Array) => `sha512-${crypto.createHash('sha512').update(bytes).digest('base64')}`;

export async function movePackages(
  db: Db,
  from: PackageStore,
  to: PackageStore,
  opts: { log?: (line: string) => void; /** only these skills' versions */ skillIds?: string[] } = {},
): Promise<MoveResult> {
  const result: MoveResult = { moved: 0, alreadyThere: 0, missing: 0, failed: [] };
  let cursor: string | undefined;
  for (;;) {
    const versions = await db.skillVersion.findMany({
      where: opts.skillIds ? { skillId: { in: opts.skillIds } } : undefined,
      select: { id: true, integrity: true },
      orderBy: { id: 'asc' },
      take: 100,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    });
    if (!versions.length) break;
    cursor = versions[versions.length - 1].id;
    for (const v of versions) {
      try {
        if ((await from.size(v.id)) === null) {
          if ((await to.size(v.id)) === null) result.missing++;
          continue;
        }
        if ((await to.size(v.id)) === null) {
          const bytes = Buffer.from(await readAll(from.open(v.id)));
          if (v.integrity && integrityOf(bytes) !== v.integrity) throw new Error('the source bytes do not match the recorded integrity');
          await to.put(v.id, bytes);
          const back = Buffer.from(await readAll(to.open(v.id)));
          if (!back.equals(bytes)) throw new Error('the copy reads back different bytes');
          result.moved++;
        } else result.alreadyThere++;
        await from.remove(v.id);
        opts.log?.(`moved ${v.id}`);
      } catch (err) {
        result.failed.push({ versionId: v.id, reason: (err as Error).message });
      }
    }
  }
  return result;
}
