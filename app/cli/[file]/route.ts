// The CLI as an npm tarball, built from this repository by `npm run build` (and by
// `npm start` when missing; cli/build-package.mjs): /cli/skillyard-<version>.tgz the bytes,
// immutable, with their sha512 integrity; /cli/skillyard.tgz a redirect to the current
// version, so `npx -y <site>/cli/skillyard.tgz add @scope/name` works from any folder;
// /cli/latest.json the version, file and integrity. Public, like the skill pages.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { setting } from '@/lib/config';

export const dynamic = 'force-dynamic';

let cached: { file: string; bytes: Buffer } | null = null;

type Latest = { name: string; version: string; file: string; integrity: string; size: number };

const FILE = /^skillyard-(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\.tgz$/;

function packageDir(): string {
  return path.join(setting('SKILLYARD_ROOT') ?? process.cwd(), 'dist', 'cli-package');
}

async function latest(): Promise<Latest | null> {
  try {
    return JSON.parse(await fsp.readFile(path.join(packageDir(), 'latest.json'), 'utf8')) as Latest;
  } catch {
    return null;
  }
}

function notFound(message: string): Response {
  return Response.json({ error: { code: 'cli/not-found', message } }, { status: 404 });
}

export async function GET(_req: Request, ctx: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await ctx.params;
  const current = await latest();
  if (!current) return notFound('This registry has not built its CLI package (the operator runs `npm run build`).');
  if (file === 'latest.json') {
    return Response.json({ ...current, url: `/cli/${current.file}` }, { headers: { 'cache-control': 'no-cache' } });
  }
  if (file === 'skillyard.tgz') {
    // relative: right behind any proxy; npm and fetch resolve it against the request URL
    return new Response(null, { status: 302, headers: { location: `/cli/${current.file}`, 'cache-control': 'no-cache' } });
  }
  const m = FILE.exec(file);
  if (!m) return notFound(`No such file: /cli/${file}. The CLI is at /cli/skillyard.tgz.`);
  if (file !== current.file) return notFound(`This registry serves CLI ${current.version} only: /cli/${current.file}.`);
  let bytes: Buffer;
  try {
    // read once per built version, not per download (the file is immutable under its name)
    if (cached?.file !== current.file) cached = { file: current.file, bytes: await fsp.readFile(path.join(packageDir(), current.file)) };
    bytes = cached.bytes;
  } catch {
    return notFound('The CLI package is missing; the operator runs `npm run build`.');
  }
  return new Response(new Uint8Array(bytes), {
    headers: {
      'content-type': 'application/octet-stream',
      'content-length': String(bytes.byteLength),
      'cache-control': 'public, max-age=31536000, immutable',
      etag: `"${current.integrity}"`,
      'x-skillyard-integrity': current.integrity,
      'x-skillyard-version': current.version,
    },
  });
}
