// Highlighting off the event loop. Shiki's grammars run synchronously: 64 KB of TypeScript
// took 0.5-1.9 s of the web process's one thread, and any visitor may view any public
// skill's files, so each such view stalled every other request for that long (issue 23).
// Files are highlighted on one worker thread, one at a time: a file waits for at most
// `queueLimit` others (past that it shows as plain text at once), and one that takes longer
// than `timeoutMs` shows as plain text, its thread terminated and replaced. A version's
// files never change, so the HTML is kept by the text's hash (least recently used out past
// `cacheChars`), and a second view of a file costs a lookup.
import 'server-only';
import crypto from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { HighlightJob, HighlightReply } from './highlight-worker';
import { resolveHighlightWorkerFile } from './highlight-worker-build';

export type HighlightThreadOptions = { timeoutMs?: number; queueLimit?: number; cacheChars?: number; workerFile?: string };

export type HighlightStats = { highlighted: number; cached: number; plain: { timeout: number; busy: number; failed: number } };

type Job = HighlightJob & { key: string; done: (html: string | null) => void };

export class HighlightThread {
  private readonly timeoutMs: number;
  private readonly queueLimit: number;
  private readonly cacheChars: number;
  private worker: Worker | null = null;
  private current: { job: Job; timer: NodeJS.Timeout } | null = null;
  private readonly queue: Job[] = [];
  /** html by key, least recently used first (Map keeps insertion order) */
  private readonly cache = new Map<string, string>();
  private cachedChars = 0;
  /** a file being highlighted or waiting: later views of it share the answer */
  private readonly pending = new Map<string, Promise<string | null>>();
  private lastId = 0;
  readonly stats: HighlightStats = { highlighted: 0, cached: 0, plain: { timeout: 0, busy: 0, failed: 0 } };

  constructor(private readonly opts: HighlightThreadOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? 3_000;
    this.queueLimit = opts.queueLimit ?? 8;
    this.cacheChars = opts.cacheChars ?? 16 * 1024 * 1024;
  }

  /** The file's HTML, or null: show it as plain text (too busy, too slow, or the grammar failed). */
  highlight(text: string, lang: string): Promise<string | null> {
    const key = crypto.createHash('sha256').update(lang).update('\0').update(text).digest('base64url');
    const hit = this.cache.get(key);
    if (hit !== undefined) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      this.stats.cached++;
      return Promise.resolve(hit);
    }
    const shared = this.pending.get(key);
    if (shared) return shared;
    if (this.queue.length >= this.queueLimit) {
      this.stats.plain.busy++;
      return Promise.resolve(null);
    }
    const answer = new Promise<string | null>((done) => this.queue.push({ id: ++this.lastId, key, text, lang, done }));
    this.pending.set(key, answer);
    void answer.then(() => this.pending.delete(key));
    this.next();
    return answer;
  }

  /** Stops the thread; files waiting show as plain text. */
  async close(): Promise<void> {
    for (const job of this.queue.splice(0)) job.done(null);
    if (this.current) this.finish(null);
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }

  private next(): void {
    if (this.current || this.queue.length === 0) return;
    const job = this.queue.shift()!;
    let worker: Worker;
    try {
      worker = this.thread();
    } catch {
      this.stats.plain.failed++;
      job.done(null);
      return this.next();
    }
    const timer = setTimeout(() => {
      this.stats.plain.timeout++;
      // the grammar is still running on that thread: only terminating it stops it
      this.worker = null;
      void worker.terminate();
      this.finish(null);
    }, this.timeoutMs);
    timer.unref?.();
    this.current = { job, timer };
    worker.postMessage({ id: job.id, text: job.text, lang: job.lang } satisfies HighlightJob);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.opts.workerFile ?? resolveHighlightWorkerFile());
    w.unref();
    w.on('message', (reply: HighlightReply) => {
      if (this.worker !== w || this.current?.job.id !== reply.id) return;
      if ('html' in reply) {
        this.stats.highlighted++;
        this.remember(this.current.job.key, reply.html);
        this.finish(reply.html);
      } else {
        this.stats.plain.failed++;
        this.finish(null);
      }
    });
    const gone = () => {
      if (this.worker !== w) return;
      this.worker = null;
      if (this.current) {
        this.stats.plain.failed++;
        this.finish(null);
      }
    };
    w.on('error', gone);
    w.on('exit', gone);
    this.worker = w;
    return w;
  }

  private finish(html: string | null): void {
    const current = this.current;
    if (!current) return;
    clearTimeout(current.timer);
    this.current = null;
    current.job.done(html);
    this.next();
  }

  private remember(key: string, html: string): void {
    if (html.length > this.cacheChars) return;
    this.cache.set(key, html);
    this.cachedChars += html.length;
    for (const [k, v] of this.cache) {
      if (this.cachedChars <= this.cacheChars) break;
      this.cache.delete(k);
      this.cachedChars -= v.length;
    }
  }
}
