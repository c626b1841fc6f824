// Highlighting and markdown off the event loop. Shiki's grammars and React's markdown run
// synchronously: 64 KB of TypeScript took the web process's one thread 0.5-1.9 s, and
// 256 KB of markdown (a readme may be that long) 2.5-5 s, and any visitor may view any
// public skill's page and files, so each such view stalled every other request for that
// long (issue 23). Both run on one worker thread, one job at a time (`lang`: a grammar, or
// MARKDOWN_HTML): a job waits for at most `queueLimit` others (past that the caller shows
// plain text at once), and one that takes longer than `timeoutMs` answers null (plain
// text), its thread terminated and replaced. A version's files never change, so the HTML
// is kept by the text's hash (least recently used out past `cacheChars`), and a second view
// costs a lookup.
import 'server-only';
import crypto from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { RenderJob, RenderReply } from './render-worker';
import { resolveRenderWorkerFile } from './render-worker-build';

export type RenderThreadOptions = { timeoutMs?: number; queueLimit?: number; cacheChars?: number; workerFile?: string };

export type RenderStats = { rendered: number; cached: number; plain: { timeout: number; busy: number; failed: number } };

type Job = RenderJob & { key: string; done: (html: string | null) => void };

export class RenderThread {
  private readonly timeoutMs: number;
  private readonly queueLimit: number;
  private readonly cacheChars: number;
  private worker: Worker | null = null;
  private current: { job: Job; timer: NodeJS.Timeout } | null = null;
  private readonly queue: Job[] = [];
  /** html by key, least recently used first (Map keeps insertion order) */
  private readonly cache = new Map<string, string>();
  private cachedChars = 0;
  /** a text being rendered or waiting: later views of it share the answer */
  private readonly pending = new Map<string, Promise<string | null>>();
  private lastId = 0;
  readonly stats: RenderStats = { rendered: 0, cached: 0, plain: { timeout: 0, busy: 0, failed: 0 } };

  constructor(private readonly opts: RenderThreadOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.queueLimit = opts.queueLimit ?? 8;
    this.cacheChars = opts.cacheChars ?? 16 * 1024 * 1024;
  }

  /** The HTML, or null: show the text plain (too busy, too slow, or the grammar failed). */
  render(text: string, lang: string): Promise<string | null> {
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

  /** Stops the thread; texts waiting show as plain text. */
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
    worker.postMessage({ id: job.id, text: job.text, lang: job.lang } satisfies RenderJob);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.opts.workerFile ?? resolveRenderWorkerFile());
    w.unref();
    w.on('message', (reply: RenderReply) => {
      if (this.worker !== w || this.current?.job.id !== reply.id) return;
      if ('html' in reply) {
        this.stats.rendered++;
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
