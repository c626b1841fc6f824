import { describe, expect, it } from 'vitest';
import { MAX_SEQ, parseAfterSeq } from './parse-after-seq';

describe('parseAfterSeq', () => {
  it('reads Last-Event-ID before ?after=, and nothing as 0', () => {
    expect(parseAfterSeq('5', '9')).toBe(5);
    expect(parseAfterSeq(null, '9')).toBe(9);
    expect(parseAfterSeq(null, null)).toBe(0);
    expect(parseAfterSeq('', null)).toBe(0);
    expect(parseAfterSeq(String(MAX_SEQ), null)).toBe(MAX_SEQ);
  });

  it.each(['2147483648', '99999999999', '-1', 'abc', '1e3', '0x10', '1.5', ' 12a', '١٢'])('refuses %j with a 400', (value) => {
    expect(() => parseAfterSeq(value, null)).toThrow(expect.objectContaining({ code: 'input/invalid-event-id', status: 400 }));
    expect(() => parseAfterSeq(null, value)).toThrow(expect.objectContaining({ code: 'input/invalid-event-id', status: 400 }));
  });
});
