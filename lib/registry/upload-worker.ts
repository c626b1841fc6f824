// Worker-thread entry (bundled to dist/registry/upload-worker.mjs by upload-worker-build.ts):
// reads and scans one upload per message, or packs a package being published (tarball,
// integrity, content hash), off the web process's event loop. An AppError travels back as
// {code, message, details}; anything else as a plain message.
import { parentPort, threadId } from 'node:worker_threads';
import { isAppError } from '../errors';
import { packPackage, type PackageFile, type PackedPackage } from './package-tarball';
import { readAndScanUpload } from './read-and-scan';
import type { ReadUploadOptions, UploadInput } from './read-upload';

export type UploadJob = { id: number; kind: 'read'; input: UploadInput; options?: ReadUploadOptions } | { id: number; kind: 'pack'; files: PackageFile[]; folder: string };
export type UploadJobReply =
  | { id: number; ok: true; result: ReturnType<typeof readAndScanUpload> | PackedPackage; threadId: number }
  | { id: number; ok: false; error: { code?: string; message: string; details?: Record<string, unknown> } };

if (!parentPort) throw new Error('upload-worker runs as a worker thread');
const port = parentPort;
port.on('message', (job: UploadJob) => {
  let reply: UploadJobReply;
  try {
    const result = job.kind === 'pack' ? packPackage(job.files, job.folder) : readAndScanUpload(job.input, job.options);
    reply = { id: job.id, ok: true, result, threadId };
  } catch (err) {
    reply = isAppError(err)
      ? { id: job.id, ok: false, error: { code: err.code, message: err.message, details: err.details } }
      : { id: job.id, ok: false, error: { message: err instanceof Error ? err.message : String(err) } };
  }
  port.postMessage(reply);
});
