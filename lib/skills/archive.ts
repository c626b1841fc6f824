// Zip and tar(.gz) archives -> in-memory files, with the upload limits enforced while
// decompressing (an archive bomb is stopped at the byte limit, not after it).

import { Gunzip, Unzip, UnzipInflate } from 'fflate';
import { DiagnosticSink } from './diagnostic-sink';
import { resolveLimits, type ReadLimits } from './limits';
import type { Diagnostic } from './types';
import { normalizeTreePath, type InputFile } from './read';

export type ArchiveResult = { files: { path: string; content: Uint8Array }[]; diagnostics: Diagnostic[] };

export type ArchiveKind = 'zip' | 'tar.gz' | 'tar' | null;

export function archiveKind(bytes: Uint8Array): ArchiveKind {
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5)) return 'zip';
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return 'tar.gz';
  if (bytes.length >= 262 && String.fromCharCode(...bytes.subarray(257, 262)) === 'ustar') return 'tar';
  return null;
}

class Stop extends Error {}

export function readArchive(bytes: Uint8Array, opts: { limits?: Partial<ReadLimits> } = {}): ArchiveResult {
  const limits = resolveLimits(opts.limits);
  const sink = new DiagnosticSink();
  const files: { path: string; content: Uint8Array }[] = [];
  const kind = archiveKind(bytes);
  const state = { total: 0 };
  const accept = (rawName: string, content: Uint8Array | null, type: 'file' | 'dir' | 'link' | 'other'): boolean => {
    if (type === 'dir') return true;
    const name = normalizeTreePath(rawName);
    if (name === null) {
      sink.error('path/outside-package', `archive entry "${rawName.slice(0, 200)}" is absolute or climbs out of the package; skipped`, { file: rawName.slice(0, 200) });
      return true;
    }
    if (type === 'link') {
      sink.error('path/symlink', `archive entry ${name} is a link; links are not allowed`, { file: name });
      return true;
    }
    if (type === 'other') {
      sink.warn('archive/entry-skipped', `archive entry ${name} is not a regular file; skipped`, { file: name });
      return true;
    }
    if (files.length >= limits.maxArchiveFiles) {
      sink.error('archive/too-many-files', `the archive has more than ${limits.maxArchiveFiles} files`);
      throw new Stop();
    }
    files.push({ path: name, content: content ?? new Uint8Array() });
    return true;
  };
  try {
    if (kind === 'zip') readZip(bytes, limits, sink, accept, state);
    else if (kind === 'tar.gz') readTar(gunzipLimited(bytes, limits, sink), sink, accept, limits);
    else if (kind === 'tar') readTar(bytes, sink, accept, limits);
    else sink.error('archive/unsupported', 'not a zip, tar or tar.gz archive');
  } catch (e) {
    if (!(e instanceof Stop)) sink.error('archive/corrupt', `the archive could not be read: ${(e as Error).message}`);
  }
  return { files, diagnostics: sink.list };
}

function gunzipLimited(bytes: Uint8Array, limits: ReadLimits, sink: DiagnosticSink): Uint8Array {
  // tar headers and padding add at most ~1 KB per entry on top of the content
  const max = limits.maxArchiveBytes + (limits.maxArchiveFiles + 2) * 1024 + 10240;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const gz = new Gunzip((chunk) => {
    size += chunk.length;
    if (size > max) {
      sink.error('archive/too-large', `the archive expands to more than ${limits.maxArchiveBytes} bytes (archive bomb?)`);
      throw new Stop();
    }
    chunks.push(chunk);
  });
  const STEP = 16 * 1024;
  for (let off = 0; off < bytes.length; off += STEP) gz.push(bytes.subarray(off, off + STEP), off + STEP >= bytes.length);
  const out = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** Names of zip entries whose Unix mode says symlink (central directory scan). */
function zipSymlinks(bytes: Uint8Array): Set<string> {
  const links = new Set<string>();
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65557); i--) {
    if (dv.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return links;
  const count = dv.getUint16(eocd + 10, true);
  let p = dv.getUint32(eocd + 16, true);
  const dec = new TextDecoder();
  for (let n = 0; n < count && p + 46 <= bytes.length; n++) {
    if (dv.getUint32(p, true) !== 0x02014b50) break;
    const host = dv.getUint8(p + 5);
    const nameLen = dv.getUint16(p + 28, true);
    const extraLen = dv.getUint16(p + 30, true);
    const commentLen = dv.getUint16(p + 32, true);
    const attr = dv.getUint32(p + 38, true);
    const name = dec.decode(bytes.subarray(p + 46, p + 46 + nameLen));
    if (host === 3 && ((attr >>> 16) & 0o170000) === 0o120000) links.add(name);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return links;
}

function readZip(bytes: Uint8Array, limits: ReadLimits, sink: DiagnosticSink, accept: (n: string, c: Uint8Array | null, t: 'file' | 'dir' | 'link' | 'other') => boolean, state: { total: number }) {
  const links = zipSymlinks(bytes);
  const uz = new Unzip();
  uz.register(UnzipInflate);
  uz.onfile = (file) => {
    if (file.name.endsWith('/')) return;
    if (links.has(file.name)) {
      accept(file.name, null, 'link');
      return;
    }
    // Large files (fonts, images) are stored, not parsed: only the archive total bounds them.
    if (file.originalSize !== undefined && file.originalSize > limits.maxArchiveBytes) {
      sink.error('archive/too-large', `${file.name} is ${file.originalSize} bytes; the archive limit is ${limits.maxArchiveBytes}`, { file: file.name });
      throw new Stop();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (err, chunk, final) => {
      if (err) throw err;
      size += chunk.length;
      state.total += chunk.length;
      if (state.total > limits.maxArchiveBytes) {
        sink.error('archive/too-large', `the archive expands to more than ${limits.maxArchiveBytes} bytes (archive bomb?)`);
        throw new Stop();
      }
      chunks.push(chunk);
      if (final) {
        const out = new Uint8Array(size);
        let o = 0;
        for (const c of chunks) {
          out.set(c, o);
          o += c.length;
        }
        accept(file.name, out, 'file');
      }
    };
    file.start();
  };
  const STEP = 16 * 1024;
  for (let off = 0; off < bytes.length; off += STEP) uz.push(bytes.subarray(off, off + STEP), off + STEP >= bytes.length);
}

function readTar(bytes: Uint8Array, sink: DiagnosticSink, accept: (n: string, c: Uint8Array | null, t: 'file' | 'dir' | 'link' | 'other') => boolean, limits: ReadLimits) {
  const dec = new TextDecoder();
  const str = (a: number, b: number) => {
    const s = bytes.subarray(a, b);
    const z = s.indexOf(0);
    return dec.decode(z >= 0 ? s.subarray(0, z) : s);
  };
  const octal = (a: number, len: number) => {
    if (bytes[a] & 0x80) {
      // base-256 (GNU) for big sizes
      let v = 0;
      for (let i = 1; i < len; i++) v = v * 256 + bytes[a + i];
      return v;
    }
    const s = str(a, a + len).trim();
    return s ? parseInt(s, 8) : 0;
  };
  let off = 0;
  let longName: string | null = null;
  let paxPath: string | null = null;
  let total = 0;
  while (off + 512 <= bytes.length) {
    const header = bytes.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i];
    if (sum !== octal(off + 148, 8)) throw new Error(`bad tar header checksum at offset ${off}`);
    const size = octal(off + 124, 12);
    if (!Number.isFinite(size) || size < 0) throw new Error('bad tar entry size');
    const type = String.fromCharCode(header[156] || 48);
    const prefix = str(off + 345, off + 500);
    const baseName = str(off, off + 100);
    const name = paxPath ?? longName ?? (prefix && str(off + 257, off + 262) === 'ustar' ? `${prefix}/${baseName}` : baseName);
    const dataStart = off + 512;
    const dataEnd = dataStart + size;
    if (dataEnd > bytes.length) throw new Error('truncated tar entry');
    off = dataStart + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = str(dataStart, dataEnd);
      continue;
    }
    if (type === 'x') {
      const pax = dec.decode(bytes.subarray(dataStart, dataEnd));
      const m = /\d+ path=([^\n]*)\n/.exec(pax);
      paxPath = m ? m[1] : null;
      continue;
    }
    if (type === 'g') continue;
    longName = null;
    paxPath = null;
    if (type === '5') accept(name, null, 'dir');
    else if (type === '1' || type === '2') accept(name, null, 'link');
    else if (type === '0' || type === '7') {
      total += size;
      if (total > limits.maxArchiveBytes) {
        sink.error('archive/too-large', `the archive expands to more than ${limits.maxArchiveBytes} bytes`);
        throw new Stop();
      }
      accept(name, bytes.slice(dataStart, dataEnd), 'file');
    } else accept(name, null, 'other');
  }
}

export type { InputFile };
