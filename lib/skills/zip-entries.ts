// A zip's entries as every reader would see them, or an error. A zip says each thing
// twice: the central directory (what `unzip` and most tools read) and a local header
// before each entry's data (what a streaming reader reads). An upload whose two copies
// disagree (a name, a size, a method, a symlink mode, an entry the directory does not
// list) would be checked as one package and unpacked as another, so it is refused:
// - each local header must repeat its central entry's name, flags, method, CRC and sizes
//   (or defer them to a data descriptor that repeats them);
// - the entries must tile the archive from byte 0 to the central directory, with no gap
//   or overlap a streaming reader would read differently;
// - an entry is a link when either copy says so (the Unix mode in the central directory,
//   or the "ASi Unix" extra field in either header);
// - a Unicode Path extra field must name the entry as its header does.
// The data is then inflated from where the central entry points, and its length and CRC
// must match (archive.ts).

export type ZipEntry = {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  /** where the entry's (compressed) data starts and ends */
  dataStart: number;
  dataEnd: number;
  link: boolean;
  dir: boolean;
};

export class ZipTooManyEntries extends Error {}

const SIG = { local: 0x04034b50, central: 0x02014b50, eocd: 0x06054b50, eocd64: 0x06064b50, locator64: 0x07064b50, descriptor: 0x08074b50 };
const MAX32 = 0xffffffff;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

const fail = (msg: string): never => {
  throw new Error(msg);
};

type Extra = { zip64: DataView | null; asiLink: boolean; unicodePath: Uint8Array | null };

function readExtra(bytes: Uint8Array, start: number, end: number): Extra {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Extra = { zip64: null, asiLink: false, unicodePath: null };
  let p = start;
  while (p + 4 <= end) {
    const id = dv.getUint16(p, true);
    const len = dv.getUint16(p + 2, true);
    const body = p + 4;
    if (body + len > end) fail('an extra field runs past its header');
    if (id === 0x0001) out.zip64 = new DataView(bytes.buffer, bytes.byteOffset + body, len);
    // ASi Unix: CRC (4), mode (2), ...
    if (id === 0x756e && len >= 6 && (dv.getUint16(body + 4, true) & S_IFMT) === S_IFLNK) out.asiLink = true;
    // Info-ZIP Unicode Path: version (1), CRC of the header's name (4), the UTF-8 name
    if (id === 0x7075 && len >= 5) out.unicodePath = bytes.subarray(body + 5, body + len);
    p = body + len;
  }
  return out;
}

/** The 64-bit values a zip64 extra field holds for the 32-bit fields that are 0xFFFFFFFF, in the order given. */
function zip64Values(extra: Extra, wanted: boolean[]): number[] {
  const out: number[] = [];
  let off = 0;
  for (const w of wanted) {
    if (!w) {
      out.push(-1);
      continue;
    }
    if (!extra.zip64 || off + 8 > extra.zip64.byteLength) fail('a zip64 size or offset is missing its extra field');
    const v = extra.zip64!.getBigUint64(off, true);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) fail('a zip64 size or offset is too large');
    out.push(Number(v));
    off += 8;
  }
  return out;
}

// as fflate decoded names before: UTF-8 when the entry says so, else one byte per character
const decodeName = (raw: Uint8Array, utf8: boolean) => (utf8 ? new TextDecoder().decode(raw) : Array.from(raw, (c) => String.fromCharCode(c)).join(''));
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

export function zipEntries(bytes: Uint8Array, maxEntries: number): ZipEntry[] {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (p: number) => (p + 4 <= bytes.length ? dv.getUint32(p, true) : fail('the archive is truncated'));
  const u16 = (p: number) => (p + 2 <= bytes.length ? dv.getUint16(p, true) : fail('the archive is truncated'));

  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (dv.getUint32(i, true) === SIG.eocd) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) fail('the zip has no central directory');
  if (u16(eocd + 4) !== 0 || u16(eocd + 6) !== 0) fail('multi-part zips are not supported');
  let count = u16(eocd + 10);
  let cdSize = u32(eocd + 12);
  let cdOffset = u32(eocd + 16);
  let cdLimit = eocd;
  // zip64 end records sit between the directory and the end record: whenever they are
  // there (Info-ZIP writes them for streamed input), and required when a field is maxed
  const locator = eocd - 20;
  const hasZip64 = locator >= 0 && dv.getUint32(locator, true) === SIG.locator64;
  if (!hasZip64 && (count === 0xffff || cdSize === MAX32 || cdOffset === MAX32)) fail('the zip64 end of central directory is missing');
  if (hasZip64) {
    const rec = Number(dv.getBigUint64(locator + 8, true));
    if (rec + 56 > locator || u32(rec) !== SIG.eocd64) fail('the zip64 end of central directory is damaged');
    count = Number(dv.getBigUint64(rec + 32, true));
    cdSize = Number(dv.getBigUint64(rec + 40, true));
    cdOffset = Number(dv.getBigUint64(rec + 48, true));
    cdLimit = rec;
  }
  if (cdOffset + cdSize !== cdLimit) fail('the central directory does not end where the archive says');
  if (count > maxEntries) throw new ZipTooManyEntries(`the archive lists ${count} entries`);
  if (count * 46 > cdSize) fail('the central directory is shorter than its entry count');

  const entries: Array<ZipEntry & { localOffset: number; end: number }> = [];
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > cdLimit || u32(p) !== SIG.central) fail(`central directory entry ${n + 1} is damaged`);
    const host = bytes[p + 5];
    const flags = u16(p + 8);
    const method = u16(p + 10);
    const crc = u32(p + 16);
    const nameLen = u16(p + 28);
    const extraLen = u16(p + 30);
    const commentLen = u16(p + 32);
    const disk = u16(p + 34);
    const mode = u32(p + 38) >>> 16;
    const rawName = bytes.subarray(p + 46, p + 46 + nameLen);
    if (p + 46 + nameLen + extraLen + commentLen > cdLimit) fail(`central directory entry ${n + 1} runs past the directory`);
    const extra = readExtra(bytes, p + 46 + nameLen, p + 46 + nameLen + extraLen);
    const [size64, csize64, offset64] = zip64Values(extra, [u32(p + 24) === MAX32, u32(p + 20) === MAX32, u32(p + 42) === MAX32]);
    const size = size64 >= 0 ? size64 : u32(p + 24);
    const compressedSize = csize64 >= 0 ? csize64 : u32(p + 20);
    const localOffset = offset64 >= 0 ? offset64 : u32(p + 42);
    p += 46 + nameLen + extraLen + commentLen;

    const name = decodeName(rawName, (flags & 0x800) !== 0);
    if (flags & 0x1) fail(`${name} is encrypted`);
    if (disk !== 0) fail('multi-part zips are not supported');
    if (extra.unicodePath && new TextDecoder().decode(extra.unicodePath) !== name) fail(`${name} has a second, different name in its Unicode Path field`);

    // the local header must say the same
    const l = localOffset;
    if (l + 30 > bytes.length || u32(l) !== SIG.local) fail(`the central directory points ${name} at no local header`);
    const lFlags = u16(l + 6);
    const lNameLen = u16(l + 26);
    const lExtraLen = u16(l + 28);
    const lName = bytes.subarray(l + 30, l + 30 + lNameLen);
    const dataStart = l + 30 + lNameLen + lExtraLen;
    if (dataStart > bytes.length) fail(`the local header of ${name} is truncated`);
    const lExtra = readExtra(bytes, l + 30 + lNameLen, dataStart);
    const disagree = (what: string, detail = '') => fail(`the central directory and the local header disagree about ${what} of ${name}${detail}`);
    if (!sameBytes(lName, rawName)) disagree('the name', ` (the local header says ${JSON.stringify(decodeName(lName, (lFlags & 0x800) !== 0).slice(0, 200))})`);
    if ((lFlags & 0x809) !== (flags & 0x809)) disagree('the flags');
    if (u16(l + 8) !== method) disagree('the compression method');
    if (lExtra.unicodePath && new TextDecoder().decode(lExtra.unicodePath) !== name) disagree('the Unicode name');
    const deferred = (lFlags & 0x8) !== 0;
    const lZip64 = lExtra.zip64 !== null;
    if (!deferred) {
      const [lSize64, lCsize64] = zip64Values(lExtra, [u32(l + 22) === MAX32, u32(l + 18) === MAX32]);
      if (u32(l + 14) !== crc) disagree('the CRC');
      if ((lSize64 >= 0 ? lSize64 : u32(l + 22)) !== size) disagree('the size');
      if ((lCsize64 >= 0 ? lCsize64 : u32(l + 18)) !== compressedSize) disagree('the compressed size');
    }
    const dataEnd = dataStart + compressedSize;
    if (dataEnd > cdOffset) fail(`the data of ${name} runs into the central directory`);
    let end = dataEnd;
    if (deferred) {
      // the data descriptor after the data: [signature] CRC, compressed size, size (8 bytes each in zip64)
      if (u32(end) === SIG.descriptor) end += 4;
      const w = lZip64 ? 8 : 4;
      const num = (q: number) => (w === 8 ? Number(dv.getBigUint64(q, true)) : u32(q));
      if (end + 4 + 2 * w > cdOffset) fail(`the data descriptor of ${name} is missing`);
      if (u32(end) !== crc) disagree('the CRC (data descriptor)');
      if (num(end + 4) !== compressedSize) disagree('the compressed size (data descriptor)');
      if (num(end + 4 + w) !== size) disagree('the size (data descriptor)');
      end += 4 + 2 * w;
    }
    const link = (host === 3 && (mode & S_IFMT) === S_IFLNK) || extra.asiLink || lExtra.asiLink;
    entries.push({ name, method, crc, compressedSize, size, dataStart, dataEnd, link, dir: name.endsWith('/'), localOffset, end });
  }
  if (p !== cdLimit) fail('the central directory holds more than its entries');

  // the entries tile the archive: a streaming reader walks exactly these
  const byOffset = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  let at = 0;
  for (const e of byOffset) {
    if (e.localOffset !== at) fail(e.localOffset < at ? `${e.name} overlaps the entry before it` : `there are ${e.localOffset - at} unlisted bytes before ${e.name}`);
    at = e.end;
  }
  if (at !== cdOffset) fail(`there are ${cdOffset - at} unlisted bytes before the central directory`);
  return byOffset.map(({ localOffset: _o, end: _e, ...e }) => e);
}

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** CRC-32 (the zip and gzip one), continued from `crc` over `chunk`. */
export function crc32(chunk: Uint8Array, crc = 0): number {
  let c = ~crc;
  for (let i = 0; i < chunk.length; i++) c = CRC_TABLE[(c ^ chunk[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}
