import { afterEach, describe, expect, it } from 'vitest';
import { deriveKey, openSecret, resetSecretKeyForTests, sealSecret } from './secret-box';

afterEach(() => {
  delete process.env.SKILLYARD_SECRET_KEY;
  resetSecretKeyForTests();
});

describe('secret box', () => {
  it('round-trips and never stores the plaintext', () => {
    process.env.SKILLYARD_SECRET_KEY = 'a'.repeat(64);
    const sealed = sealSecret('gho_supersecret');
    expect(sealed).not.toContain('supersecret');
    expect(openSecret(sealed)).toBe('gho_supersecret');
    expect(sealSecret('gho_supersecret')).not.toBe(sealed); // fresh IV each time
  });

  it('refuses a tampered secret or a different key', () => {
    process.env.SKILLYARD_SECRET_KEY = 'b'.repeat(64);
    const sealed = sealSecret('value');
    const parts = sealed.split('.');
    parts[2] = Buffer.from('other').toString('base64url');
    expect(() => openSecret(parts.join('.'))).toThrow();
    resetSecretKeyForTests();
    process.env.SKILLYARD_SECRET_KEY = 'c'.repeat(64);
    expect(() => openSecret(sealed)).toThrow();
  });

  it('rejects a key of the wrong size, and derives distinct purpose keys', () => {
    process.env.SKILLYARD_SECRET_KEY = 'abcd';
    expect(() => sealSecret('x')).toThrow(/32 bytes/);
    resetSecretKeyForTests();
    process.env.SKILLYARD_SECRET_KEY = 'd'.repeat(64);
    expect(deriveKey('a').equals(deriveKey('b'))).toBe(false);
    expect(deriveKey('a').equals(deriveKey('a'))).toBe(true);
  });
});
