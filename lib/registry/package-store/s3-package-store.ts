// Package bytes in an S3-compatible object store (AWS S3, MinIO, R2...; tested against
// s3rver): one object per version, `<prefix><versionId>.tgz`, streamed on download with
// the client's range passed through. Credentials come from the AWS SDK's usual sources
// (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, an instance role).
import 'server-only';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { AppError } from '../../errors';
import type { ByteRange, PackageStore } from './types';

export type S3StoreConfig = { bucket: string; prefix: string; region: string; endpoint?: string };

const missing = (err: unknown) => err instanceof S3ServiceException && (err.$metadata.httpStatusCode === 404 || err.name === 'NoSuchKey' || err.name === 'NotFound');

/** Passes on only the bytes of `range` (inclusive) of a body that starts at byte `sentFrom`. */
function sliceBytes(range: ByteRange, sentFrom: number): TransformStream<Uint8Array, Uint8Array> {
  let offset = sentFrom;
  return new TransformStream({
    transform(chunk, controller) {
      const from = Math.max(range.start - offset, 0);
      const to = Math.min(range.end + 1 - offset, chunk.byteLength);
      if (to > from) controller.enqueue(chunk.subarray(from, to));
      offset += chunk.byteLength;
      if (offset > range.end) controller.terminate();
    },
  });
}

export function createS3PackageStore(config: S3StoreConfig, client?: S3Client): PackageStore {
  const s3 =
    client ??
    new S3Client({
      region: config.region,
      // MinIO, s3rver and most S3-compatible servers address buckets by path
      ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
    });
  const key = (versionId: string) => `${config.prefix}${versionId}.tgz`;
  return {
    kind: 's3',
    async put(versionId, tarball) {
      await s3.send(new PutObjectCommand({ Bucket: config.bucket, Key: key(versionId), Body: tarball, ContentType: 'application/gzip', ContentLength: tarball.byteLength }));
    },
    async size(versionId) {
      try {
        const head = await s3.send(new HeadObjectCommand({ Bucket: config.bucket, Key: key(versionId) }));
        return head.ContentLength ?? null;
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    open(versionId, range?: ByteRange) {
      let body: ReadableStream<Uint8Array> | null = null;
      let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
      return new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            try {
              if (!reader) {
                const got = await s3.send(new GetObjectCommand({ Bucket: config.bucket, Key: key(versionId), Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
                body = got.Body!.transformToWebStream() as ReadableStream<Uint8Array>;
                // a server may ignore Range and send the whole object (HTTP allows it; s3rver
                // does for bytes=0-0): then the range is cut out here
                if (range && got.ContentLength !== range.end - range.start + 1) {
                  const sentFrom = Number(/^bytes (\d+)-/.exec(got.ContentRange ?? '')?.[1] ?? 0);
                  body = body.pipeThrough(sliceBytes(range, sentFrom));
                }
                reader = body.getReader();
              }
              const { done, value } = await reader.read();
              if (done) controller.close();
              else controller.enqueue(value);
            } catch (err) {
              controller.error(missing(err) ? new AppError('skill/tarball-not-found', 'The package is missing from storage.') : err);
            }
          },
          async cancel(reason) {
            await reader?.cancel(reason);
          },
        },
        { highWaterMark: 0 },
      );
    },
    async remove(versionId) {
      await s3.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: key(versionId) }));
    },
  };
}
