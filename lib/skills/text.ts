// Bytes -> text with the checks every metadata file needs: binary content and invalid
// UTF-8 are reported, never parsed.

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export type DecodedText = { ok: true; text: string } | { ok: false; reason: 'binary' | 'encoding' };

export function decodeText(bytes: Uint8Array): DecodedText {
  const probe = Math.min(bytes.length, 8192);
  for (let i = 0; i < probe; i++) if (bytes[i] === 0) return { ok: false, reason: 'binary' };
  try {
    return { ok: true, text: decoder.decode(bytes) };
  } catch {
    return { ok: false, reason: 'encoding' };
  }
}

/** 1-based line of a character offset. */
export function lineAtOffset(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}
