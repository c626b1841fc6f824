// Runs queued publish-time runs: started beside the run worker in every server process
// (and by `npm run worker`), one version at a time by default, woken at once by a publish
// in this process and every `pollMs` otherwise. The run of one version never fails its
// publish: a version whose run cannot be done is marked failed with the reason.
import 'server-only';
import crypto from 'node:crypto';
import { setting } from '../config';
import type { Db } from '../db';
import type { Sandbox } from '../sandbox';
import { log, serializeError } from '../log';
import { claimNextEvidence, failEvidence, finishEvidence, renewEvidenceClaims, requeueStaleEvidence } from './evidence-queue';
import { loadEvidenceInput } from './load-evidence-input';
import { evidenceLimits, runEvidence } from './run-evidence';

export type EvidenceWorker = { id: string; stop(): Promise<void>; /** resolves once nothing is queued or running here (tests, bench) */ idle(): Promise<void> };

const wakers = new Set<() => void>();

/** A publish in this process: workers here look at once instead of at their next poll. */
export function wakeEvidenceWorkers(): void {
  for (const w of wakers) w();
}

export function startEvidenceWorker(deps: { db: Db; sandbox: Sandbox }, opts: { concurrency?: number; pollMs?: number; staleAfterSeconds?: number } = {}): EvidenceWorker {
  const { db } = deps;
  const id = `evidence-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const concurrency = opts.concurrency ?? setting('SKILLYARD_EVIDENCE_CONCURRENCY');
  const running = new Map<string, Promise<void>>();
  let stopped = false;
  let filling = false;
  let again = false;

  async function runOne(versionId: string) {
    try {
      const input = await loadEvidenceInput(db, versionId);
      if (!input) return; // the version was deleted meanwhile: its row went with it
      const evidence = await runEvidence({ ...input, versionId, sandbox: deps.sandbox, limits: evidenceLimits() });
      // the version's statement takes it in on its next request (registry/version-statement.ts)
      await finishEvidence(db, versionId, id, evidence);
    } catch (err) {
      log.error('publish-time run failed', { component: 'evidence', versionId, err: serializeError(err) });
      await failEvidence(db, versionId, id, err instanceof Error ? err.message : String(err)).catch(() => {});
    }
  }

  async function fill() {
    if (stopped) return;
    if (filling) {
      again = true;
      return;
    }
    filling = true;
    try {
      do {
        again = false;
        while (!stopped && running.size < concurrency) {
          const versionId = await claimNextEvidence(db, id);
          if (!versionId) break;
          const done = runOne(versionId).finally(() => {
            running.delete(versionId);
            void fill();
          });
          running.set(versionId, done);
        }
      } while (again && !stopped);
    } catch (err) {
      if (!stopped) log.error('claiming a publish-time run failed', { component: 'evidence', err: serializeError(err) });
    } finally {
      filling = false;
    }
  }

  const wake = () => void fill();
  wakers.add(wake);
  const poll = setInterval(() => {
    void renewEvidenceClaims(db, id, [...running.keys()]).catch(() => {});
    void requeueStaleEvidence(db, opts.staleAfterSeconds ?? 120).catch(() => {});
    void fill();
  }, opts.pollMs ?? 1000);
  poll.unref();
  void fill();

  return {
    id,
    async idle() {
      for (;;) {
        await fill();
        if (running.size === 0) {
          const queued = await db.versionEvidence.count({ where: { status: 'queued' } });
          if (queued === 0 || stopped) return;
        }
        await Promise.race([Promise.allSettled([...running.values()]), new Promise((r) => setTimeout(r, 50))]);
      }
    },
    async stop() {
      stopped = true;
      wakers.delete(wake);
      clearInterval(poll);
      await Promise.allSettled([...running.values()]);
    },
  };
}
