// A run's id is its share link: whoever knows the id of an unlisted run may read its whole
// trace (tool arguments and results, data of OAuth-connected tools). So the id itself is
// the secret, 128 bits from the operating system's CSPRNG, rather than a separate share
// token beside a guessable id: the id is already in every URL that grants access (the
// page, `GET /api/v1/runs/{id}`, its event stream, fork), so one unguessable id closes
// all of them at once and no route can forget to check a second value. Prisma's `cuid()`
// (time, a counter and Math.random, whose state can be solved from a few of one's own
// ids) must never name a run again. Ids of runs stored before this were replaced by the
// migration `unguessable_run_ids` (64 hex digits, two v4 UUIDs' random bits).
import 'server-only';
import crypto from 'node:crypto';

export const RUN_ID_BYTES = 16;

/** A fresh run id: 32 lowercase hex digits, 128 bits from the CSPRNG. */
export function newRunId(): string {
  return crypto.randomBytes(RUN_ID_BYTES).toString('hex');
}

/** The shape of a run id (new, or rewritten by the migration); anything else is no run. */
export function isRunId(id: string): boolean {
  return /^[0-9a-f]{32}(?:[0-9a-f]{32})?$/.test(id);
}
