// Reads and scans uploads in worker threads, so that unpacking a large archive, reading
// its skills and scanning every file never blocks the web process's event loop; a
// publish packs its tarball (gzip, integrity, content hash) on the same threads. At most
// `workers` reads run at once (SKILLYARD_UPLOAD_WORKERS; default one per two CPUs, at
// least one) and at most `queueLimit` wait (SKILLYARD_UPLOAD_QUEUE, default 4 per
// worker); past that a read is refused with `publish/busy` (503, Retry-After).
import 'server-only';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { AppError, isErrorCode } from '../errors';
import type { PackageFile, PackedPackage } from './package-tarball';
import type { ReadAndScanResult } from './read-and-scan';
import type { ReadUploadOptions, UploadInput } from './read-upload';
import type { UploadJob, UploadJobReply } from './upload-worker';
import { resolveUploadWorkerFile } from './upload-worker-build';
import { setting, type Env } from '../config';

export type UploadReaderOptions = { workers?: number; queueLimit?: number; workerFile?: string };
export type UploadReadResult = ReadAndScanResult & { threadId: number };

const MIN_RETRY_AFTER_MS = 1_000;
const MAX_RETRY_AFTER_MS = 30_000;

export function uploadReaderConfig(env?: Env): { workers: number; queueLimit: number } {
  const workers = setting('SKILLYARD_UPLOAD_WORKERS', env) ?? Math.max(1, Math.floor(os.availableParallelism() / 2));
  const queueLimit = setting('SKILLYARD_UPLOAD_QUEUE', env) ?? 4 * workers;
  return { workers, queueLimit };
}

type JobWithoutId = UploadJob extends infer J ? (J extends UploadJob ? Omit<J, 'id'> : never) : never;
type Pending = { job: JobWithoutId; resolve: (r: unknown) => void; reject: (e: unknown) => void };

export class UploadReader {
  readonly workers: number;
  readonly queueLimit: number;
  private readonly workerFile?: string;
  private idle: Worker[] = [];
  private running = 0;
  private queue: Pending[] = [];
  private nextId = 1;
  /** a moving average of how long one read takes, for Retry-After */
  private avgMs = 1_000;

  constructor(opts: UploadReaderOptions = {}) {
    const conf = uploadReaderConfig();
    this.workers = Math.max(1, opts.workers ?? conf.workers);
    this.queueLimit = Math.max(0, opts.queueLimit ?? conf.queueLimit);
    this.workerFile = opts.workerFile;
  }

  /** reads running now and reads waiting */
  get load(): { running: number; queued: number } {
    return { running: this.running, queued: this.queue.length };
  }

  read(input: UploadInput, options?: ReadUploadOptions): Promise<UploadReadResult> {
    return this.run({ kind: 'read', input, options }) as Promise<UploadReadResult>;
  }

  /** A package's tarball, integrity and content hash (publish-version.ts). */
  async pack(files: PackageFile[], folder: string): Promise<PackedPackage> {
    const { threadId: _, ...packed } = (await this.run({ kind: 'pack', files, folder })) as PackedPackage & { threadId: number };
    return packed;
  }

  private run(job: JobWithoutId): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const pending: Pending = { job, resolve, reject };
      if (this.running < this.workers) return this.start(pending);
      if (this.queue.length >= this.queueLimit) {
        const waitMs = this.avgMs * (1 + this.queue.length / this.workers);
        const retryAfterMs = Math.min(MAX_RETRY_AFTER_MS, Math.max(MIN_RETRY_AFTER_MS, Math.ceil(waitMs)));
        return reject(
          new AppError(
            'publish/busy',
            `The server is busy with other uploads and publishes (${this.running} running, ${this.queue.length} waiting); retry in ${Math.ceil(retryAfterMs / 1000)} s.`,
            {
              details: { retryAfterMs },
            },
          ),
        );
      }
      this.queue.push(pending);
    });
  }

  /** Stops the idle workers (a running read finishes; its worker then stops too). */
  async close(): Promise<void> {
    const idle = this.idle.splice(0);
    this.closed = true;
    await Promise.all(idle.map((w) => w.terminate()));
  }

  private closed = false;

  private worker(): Worker {
    const idle = this.idle.pop();
    if (idle) return idle;
    return new Worker(this.workerFile ?? resolveUploadWorkerFile());
  }

  private start(p: Pending): void {
    this.running++;
    const started = Date.now();
    let w: Worker;
    try {
      w = this.worker();
    } catch (err) {
      this.running--;
      p.reject(err);
      this.next();
      return;
    }
    w.ref();
    const id = this.nextId++;
    let settled = false;
    const done = (keep: boolean) => {
      settled = true;
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      this.running--;
      this.avgMs = 0.7 * this.avgMs + 0.3 * (Date.now() - started);
      if (keep && !this.closed) {
        w.unref();
        this.idle.push(w);
      } else void w.terminate();
      this.next();
    };
    const onMessage = (reply: UploadJobReply) => {
      if (settled || reply.id !== id) return;
      done(true);
      if (reply.ok) p.resolve({ ...reply.result, threadId: reply.threadId });
      else if (reply.error.code && isErrorCode(reply.error.code)) p.reject(new AppError(reply.error.code, reply.error.message, { details: reply.error.details }));
      else p.reject(new Error(`reading the upload failed: ${reply.error.message}`));
    };
    const onError = (err: Error) => {
      if (settled) return;
      done(false);
      p.reject(new Error(`the upload worker failed: ${err.message}`, { cause: err }));
    };
    const onExit = (code: number) => {
      if (settled) return;
      done(false);
      p.reject(new Error(`the upload worker stopped (exit code ${code})`));
    };
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    try {
      w.postMessage({ id, ...p.job } as UploadJob);
    } catch (err) {
      // e.g. an option that cannot be cloned (a KeyObject among trustedKeys)
      done(true);
      p.reject(err);
    }
  }

  private next(): void {
    while (this.running < this.workers && this.queue.length) this.start(this.queue.shift()!);
  }
}

const KEY = Symbol.for('skillyard.uploadReader');

/** The process's reader (one per process, kept across dev-server module reloads). */
export function uploadReader(): UploadReader {
  const g = globalThis as { [KEY]?: UploadReader };
  return (g[KEY] ??= new UploadReader());
}

/** Packs a package being published in a worker thread of the process's reader. */
export function packPackageOffThread(files: PackageFile[], folder: string): Promise<PackedPackage> {
  return uploadReader().pack(files, folder);
}

/** Reads and scans an upload in a worker thread of the process's reader. */
export function readUploadOffThread(input: UploadInput, options?: ReadUploadOptions): Promise<UploadReadResult> {
  return uploadReader().read(input, options);
}
