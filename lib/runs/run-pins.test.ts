import { describe, expect, it } from 'vitest';
import { canonicalJson, pinFor, readRunPins, schemaDigest, type RunPins } from './run-pins';

describe('run pins', () => {
  it('digests a tool schema whatever the order of its keys, and tells different schemas apart', () => {
    const a = { name: 't', params: { type: 'object', properties: { x: { type: 'string' }, y: { type: 'number' } } } };
    const b = { params: { properties: { y: { type: 'number' }, x: { type: 'string' } }, type: 'object' }, name: 't' };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(schemaDigest(a)).toBe(schemaDigest(b));
    expect(schemaDigest(a)).toMatch(/^sha256-[A-Za-z0-9+/]{43}=$/);
    expect(schemaDigest({ ...a, params: { ...a.params, required: ['x'] } })).not.toBe(schemaDigest(a));
  });

  it('finds the pin of a ref with or without a version, and reads runs made before pins as none', () => {
    const pins = { skills: [{ ref: '@s/n', version: '1.0.0' }] } as unknown as RunPins;
    expect(pinFor(pins, '@s/n@2.0.0')?.version).toBe('1.0.0');
    expect(pinFor(pins, 's/n')?.version).toBe('1.0.0');
    expect(pinFor(pins, '@s/other')).toBeUndefined();
    expect(readRunPins(null)).toBeNull();
    expect(readRunPins({ provider: 'scripted' })).toBeNull();
  });
});
