// One byte range from an HTTP Range header (RFC 9110 §14): `bytes=a-b`, `bytes=a-`,
// `bytes=-n`. Several ranges are answered whole (a server may ignore Range), a range that
// starts past the end is unsatisfiable (416).
import 'server-only';
import type { ByteRange } from './types';

export type RangeAnswer = { kind: 'whole' } | { kind: 'range'; range: ByteRange } | { kind: 'unsatisfiable' };

export function parseRange(header: string | null, size: number): RangeAnswer {
  if (!header) return { kind: 'whole' };
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'whole' };
  if (size === 0) return { kind: 'unsatisfiable' };
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return { kind: 'unsatisfiable' };
  if (end < start) return { kind: 'whole' };
  return { kind: 'range', range: { start, end } };
}
