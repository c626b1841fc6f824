// The start of one stored file, for the skill page's file viewer: the database slices the
// first bytes (a 50 MB file is never read, sent or decoded whole for a view; a stored
// value is detoasted only as far as the slice needs) and says how long the whole file is.
import 'server-only';
import type { Db } from '../db';

/** what the viewer shows of a file at most (bytes) */
export const FILE_VIEW_BYTES = 64 * 1024;

export type FilePrefix = { text: string; size: number; truncated: boolean };

/**
 * The first `maxBytes` of `path` in `@scope/name@version` as text, or null when the version
 * has no such file. The caller has already checked that the viewer may see the version.
 */
export async function readFilePrefix(db: Db, ref: { scope: string; name: string; version: string }, path: string, maxBytes = FILE_VIEW_BYTES): Promise<FilePrefix | null> {
  const rows = await db.$queryRaw<Array<{ head: Uint8Array; size: number }>>`
    SELECT substring(f."content" from 1 for ${maxBytes}::int) AS head, octet_length(f."content")::int AS size
    FROM "SkillFile" f
    JOIN "SkillVersion" v ON v."id" = f."versionId"
    JOIN "Skill" s ON s."id" = v."skillId"
    WHERE s."scopeName" = ${ref.scope} AND s."name" = ${ref.name} AND v."version" = ${ref.version} AND f."path" = ${path}`;
  const row = rows[0];
  if (!row) return null;
  const truncated = row.size > row.head.byteLength;
  let text = new TextDecoder('utf-8').decode(row.head);
  // a character cut in two at the slice's end is not shown as a replacement character
  if (truncated) text = text.replace(/\uFFFD+$/, '');
  return { text, size: row.size, truncated };
}
