// Applies run retention about once an hour in every web process. Several instances may
// apply it at once: each batch is idempotent (deletes of what is already gone count 0,
// tombstones skip duplicates), and the start is jittered so they rarely meet. Failures are
// logged and the next round tries again.
import 'server-only';
import type { Db } from '../db';
import { applyRunRetention, type RunRetention } from './apply-run-retention';
import { errorContext, runsLog } from './runs-log';

const EVERY_MS = 60 * 60 * 1000;

export function startRunRetention(db: Db, rules: RunRetention): () => void {
  if (rules.traceDays <= 0 && rules.runDays <= 0) return () => {};
  const round = async () => {
    try {
      const result = await applyRunRetention(db, rules);
      if (result.runsRemoved || result.tracesRemoved) runsLog.info('run retention applied', result);
    } catch (err) {
      runsLog.error('run retention failed', errorContext(err));
    }
  };
  const first = setTimeout(round, 60_000 + Math.floor(Math.random() * 5 * 60_000));
  const timer = setInterval(round, EVERY_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
