// Download counts feed ranking, so one caller fetching a tarball in a loop must not move
// them: a version counts one download per caller per day (UTC). The caller is its
// rate-limit key (the user behind a session or token, else the client address, an IPv6
// /64 as one), stored only as an HMAC in DownloadCaller, whose primary key decides across
// instances whether this caller was already counted today.
// Off the hot path: a download only notes its caller in memory. The notes are written
// right after, in one statement that inserts the new (version, day, caller) rows and adds
// what was new to SkillVersion and Skill, with at most one such statement in flight per
// process: the notes that arrive meanwhile (a flood, deduped in memory) go in the next
// batch. A crash loses at most the batch being written.
import 'server-only';
import crypto from 'node:crypto';
import type { Db } from '../db';
import { deriveKey } from '../auth';
import { log, serializeError } from '../log';

/** most notes held while the database does not answer; past it new ones are dropped */
const MAX_PENDING = 50_000;

type Note = { versionId: string; day: string; caller: string };

const pending = new Map<string, Note>();
let scheduled = false;
let flushing: Promise<void> | null = null;
let target: Db | null = null;
let lastSweep = '';

let hmacKey: Buffer | null = null;
const callerHash = (key: string) =>
  crypto
    .createHmac('sha256', (hmacKey ??= deriveKey('download-caller')))
    .update(key)
    .digest('base64url')
    .slice(0, 22);

/** Notes a download of a version by a caller (its rate-limit key); counted when the batch is written. */
export function countDownload(db: Db, d: { versionId: string; callerKey: string }, now = new Date()): void {
  const note: Note = { versionId: d.versionId, day: now.toISOString().slice(0, 10), caller: callerHash(d.callerKey) };
  const id = `${note.versionId}|${note.day}|${note.caller}`;
  if (pending.has(id) || pending.size >= MAX_PENDING) return;
  pending.set(id, note);
  target = db;
  schedule();
}

/** Writes the pending notes on the next turn of the event loop, unless a write is in flight (it comes back for them). */
function schedule(): void {
  if (scheduled || flushing) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    void flushDownloadCounts();
  });
}

/** Writes the noted downloads now (tests); resolves once they are counted. */
export async function flushDownloadCounts(): Promise<void> {
  while (flushing) await flushing;
  if (pending.size === 0 || !target) return;
  const batch = [...pending.values()];
  pending.clear();
  const db = target;
  flushing = writeBatch(db, batch)
    .catch((err: unknown) => {
      // the counts of this batch are lost, the downloads were served: say so and go on
      log.error('download counts not written', { component: 'downloads', err: serializeError(err), notes: batch.length });
    })
    .finally(() => {
      flushing = null;
      if (pending.size > 0) schedule();
    });
  await flushing;
}

async function writeBatch(db: Db, batch: Note[]): Promise<void> {
  const versionIds = batch.map((n) => n.versionId);
  const days = batch.map((n) => n.day);
  const callers = batch.map((n) => n.caller);
  // one statement: rows new today count; repeats (already counted by any instance) do not
  await db.$executeRaw`
    WITH notes AS (
      SELECT * FROM unnest(${versionIds}::text[], ${days}::date[], ${callers}::text[]) AS n("versionId", day, caller)
    ), fresh AS (
      INSERT INTO "DownloadCaller" ("versionId", day, caller)
      SELECT "versionId", day, caller FROM notes
      ON CONFLICT DO NOTHING
      RETURNING "versionId"
    ), per_version AS (
      SELECT f."versionId", count(*)::int AS n FROM fresh f GROUP BY f."versionId"
    ), versions AS (
      UPDATE "SkillVersion" v SET downloads = v.downloads + p.n FROM per_version p WHERE v.id = p."versionId" RETURNING v."skillId", p.n
    )
    UPDATE "Skill" s SET downloads = s.downloads + t.n
    FROM (SELECT "skillId", sum(n)::int AS n FROM versions GROUP BY "skillId") t
    WHERE s.id = t."skillId"`;
  // yesterday's callers are still needed around midnight (a late note of yesterday); older ones never
  const today = new Date().toISOString().slice(0, 10);
  if (lastSweep !== today) {
    lastSweep = today;
    await db.$executeRaw`DELETE FROM "DownloadCaller" WHERE day < ${today}::date - 1`;
  }
}
