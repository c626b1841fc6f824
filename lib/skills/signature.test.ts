import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSignature, generateSigningKey, hashSignedText, keyIdOf, removeLine, signText, verifySignedText } from './signature';
import { one } from './test-helpers';

const fixtureKey = readFileSync(path.join(__dirname, 'fixtures/TEST-ONLY-signing-key.pem'), 'utf8');
const fixturePub = readFileSync(path.join(__dirname, 'fixtures/TEST-ONLY-signing-key.pub.pem'), 'utf8');

describe('rye signatures', () => {
  it('HASH matches the Rye seed file (signature line removed, SHA-256 hex)', () => {
    const seed = readFileSync(path.join(__dirname, 'fixtures/rye-tool-format.signed.md'), 'utf8');
    const found = findSignature(seed);
    if (!found || !('signature' in found)) throw new Error('no signature');
    expect(found.signature.keyId).toBe('6ea18199041a1ea8');
    expect(found.signature.timestamp).toBe('2026-04-10T04:15:32Z');
    expect(hashSignedText(removeLine(seed, found.signature.lineIndex))).toBe(found.signature.hash);
    // the key is not ours: verified is null with a reason, not an error
    expect(verifySignedText(seed, [])).toMatchObject({ verified: null, reason: 'unknown key 6ea18199041a1ea8' });
  });

  it('signs and verifies; KEYID is sha256(raw public key)[0..16]', () => {
    const k = generateSigningKey();
    expect(keyIdOf(k.publicKeyPem)).toBe(k.keyId);
    expect(keyIdOf(k.privateKeyPem)).toBe(k.keyId);
    const text = '"""Doc."""\n__version__ = "1.0.0"\n';
    const signed = signText(text, k.privateKeyPem, { style: '#', timestamp: new Date('2026-02-03T04:05:06Z') });
    expect(signed.text.split('\n')[0]).toMatch(/^# rye:signed:2026-02-03T04:05:06Z:[0-9a-f]{64}:[A-Za-z0-9_-]{86}:[0-9a-f]{16}$/);
    expect(removeLine(signed.text, 0)).toBe(text);
    expect(verifySignedText(signed.text, [k.publicKeyPem])).toMatchObject({ verified: true, keyId: k.keyId });
    // tampering
    expect(verifySignedText(signed.text.replace('1.0.0', '1.0.1'), [k.publicKeyPem])).toMatchObject({ verified: false });
    // another key with the same KEYID cannot exist; a wrong key is just unknown
    expect(verifySignedText(signed.text, [generateSigningKey().publicKeyPem])).toMatchObject({ verified: null });
    // re-signing replaces the line instead of stacking another one
    const again = signText(signed.text, k.privateKeyPem);
    expect(again.text.match(/rye:signed/g)).toHaveLength(1);
  });

  it('puts the signature after a shebang and in the comment style of the file', () => {
    const k = generateSigningKey();
    const sh = signText('#!/usr/bin/env python3\nprint(1)\n', k.privateKeyPem).text;
    expect(sh.split('\n')[1]).toMatch(/^# rye:signed:/);
    const js = signText('export default 1;\n', k.privateKeyPem, { style: '//' }).text;
    expect(js).toMatch(/^\/\/ rye:signed:/);
    const md = signText('# Title\n', k.privateKeyPem, { style: '<!--' }).text;
    expect(md).toMatch(/^<!-- rye:signed:.* -->\n# Title\n$/);
    expect(verifySignedText(md, [k.publicKeyPem])?.verified).toBe(true);
  });

  it('a forged signature with the right key id fails', () => {
    const k = generateSigningKey();
    const signed = signText('x = 1\n', k.privateKeyPem).text;
    const forged = signed.replace(/:([A-Za-z0-9_-]{86}):/, `:${'A'.repeat(86)}:`);
    expect(verifySignedText(forged, [k.publicKeyPem])).toMatchObject({ verified: false, reason: expect.stringContaining('does not verify') });
  });

  it('the reader reports signature state per file and for the package', () => {
    const py = '"""T."""\n__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "x"\n__category__ = "c"\n__tool_description__ = "d"\ndef execute(p, q):\n    return {"success": True}\n';
    const signed = signText(py, fixtureKey).text;
    const ok = one({ 'p/.ai/tools/c/t.py': signed }, { trustedKeys: [fixturePub] });
    expect(ok.signature).toMatchObject({ verified: true });
    expect(ok.diagnostics).toEqual([]);
    const unknown = one({ 'p/.ai/tools/c/t.py': signed });
    expect(unknown.signature).toMatchObject({ verified: null });
    expect(unknown.diagnostics).toEqual([]);
    const tampered = one({ 'p/.ai/tools/c/t.py': signed.replace('"d"', '"evil"') }, { trustedKeys: [fixturePub] });
    expect(tampered.signature?.verified).toBe(false);
    expect(tampered.diagnostics.map((d) => d.code)).toEqual(['signature/hash-mismatch']);
    const malformed = one({ 'p/.ai/tools/c/t.py': `# rye:signed:2026:nothex:sig:id\n${py}` });
    expect(malformed.diagnostics.map((d) => d.code)).toEqual(['signature/malformed']);
    // a second, unsigned file makes the package signature unverified (null), not true
    const mixed = one({ 'p/.ai/tools/c/t.py': signed, 'p/.ai/tools/c/u.py': py }, { trustedKeys: [fixturePub] });
    expect(mixed.signature).toMatchObject({ verified: null, reason: expect.stringContaining('unsigned') });
  });
});
