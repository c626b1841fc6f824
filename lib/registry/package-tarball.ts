// A version's package as one deterministic .tar.gz (entries `<folder>/<path>`, sorted,
// mtime 0) and its npm-style integrity string. The same files always give the same
// bytes, so the integrity of a stored version can be checked by anyone who downloads it.
import crypto from 'node:crypto';
import { gzipSync } from 'fflate';

export type PackageFile = { path: string; content: Uint8Array };

const enc = new TextEncoder();

/** SHA-256 over the sorted (path, content) pairs: equal packages hash equal. */
export function contentHash(files: readonly PackageFile[]): string {
  const hash = crypto.createHash('sha256');
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(f.path).update('\0').update(String(f.content.byteLength)).update('\0').update(f.content);
  }
  return hash.digest('hex');
}

export type PackedPackage = { tarball: Uint8Array; integrity: string; contentHash: string };

/** Everything a publish computes over the files' bytes: the content hash, the tarball and its integrity. */
export function packPackage(files: readonly PackageFile[], folder: string): PackedPackage {
  const tarball = packTarball(files, folder);
  return { tarball, integrity: integrityOf(tarball), contentHash: contentHash(files) };
}

/** `sha512-<base64>` over the bytes, as npm's `dist.integrity` (Subresource Integrity). */
export function integrityOf(bytes: Uint8Array): string {
  return `sha512-${crypto.createHash('sha512').update(bytes).digest('base64')}`;
}

/** Whether `bytes` match an integrity string (sha512 or sha256 SRI). */
export function checkIntegrity(bytes: Uint8Array, integrity: string): boolean {
  const m = /^(sha512|sha256)-([A-Za-z0-9+/=]+)$/.exec(integrity.trim());
  if (!m) return false;
  const actual = crypto.createHash(m[1]).update(bytes).digest();
  const expected = Buffer.from(m[2], 'base64');
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number): Uint8Array {
  const h = new Uint8Array(512);
  const put = (text: string, at: number, len: number) => h.set(enc.encode(text).subarray(0, len), at);
  let prefix = '';
  let base = name;
  if (enc.encode(name).length > 100) {
    // ustar splits long names at a '/' into prefix (155) and name (100)
    const cut = name.lastIndexOf('/', 155);
    if (cut <= 0 || enc.encode(name.slice(cut + 1)).length > 100) throw new Error(`path too long for a tarball: ${name.slice(0, 80)}…`);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  put(base, 0, 100);
  put(octal(0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(0, 12), 136, 12);
  put('        ', 148, 8);
  h[156] = 48; // '0' regular file
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  put(prefix, 345, 155);
  let sum = 0;
  for (const b of h) sum += b;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  return h;
}

/** The package as a deterministic .tar.gz with every file under `folder/`. */
export function packTarball(files: readonly PackageFile[], folder: string): Uint8Array {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const parts: Uint8Array[] = [];
  let size = 0;
  for (const f of sorted) {
    const h = header(`${folder}/${f.path}`, f.content.byteLength);
    const pad = (512 - (f.content.byteLength % 512)) % 512;
    parts.push(h, f.content, new Uint8Array(pad));
    size += 512 + f.content.byteLength + pad;
  }
  parts.push(new Uint8Array(1024));
  size += 1024;
  const tar = new Uint8Array(size);
  let o = 0;
  for (const p of parts) {
    tar.set(p, o);
    o += p.byteLength;
  }
  return gzipSync(tar, { level: 9, mtime: 0 });
}
