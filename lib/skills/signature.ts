// Rye signatures (SPEC section 7):
//   HASH      = SHA-256 hex of the file's UTF-8 text with the signature line removed
//   SIGNATURE = Ed25519 over the ASCII bytes of HASH, base64url without padding
//   KEYID     = first 16 hex digits of SHA-256 of the raw 32-byte public key
// The line is a comment (#, // or <!-- -->) in the first three lines of the file.

import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import type { SkillSignature } from './types';

export const SIGNATURE_LINE = /^\s*(?:#|\/\/|<!--)\s*(rye|ryeos):signed:(.*?)\s*(?:-->)?\s*$/;

export type ParsedSignature = {
  timestamp: string;
  hash: string;
  signature: string;
  keyId: string;
  /** 0-based line index of the signature comment */
  lineIndex: number;
  /** `rye:signed:` (SPEC section 7) or the current Rye OS `ryeos:signed:` line */
  dialect: 'rye' | 'ryeos';
};

export type SignatureFinding = { signature: ParsedSignature } | { malformed: string; lineIndex: number } | { placeholder: true; lineIndex: number } | null;

/** Accepted forms of a trusted key: PEM text (public or private), raw 32 bytes, or a KeyObject. */
export type TrustedKey = string | Uint8Array | KeyObject;

/** Split text into lines keeping each line's terminator, so removal is exact. */
function splitKeepEnds(text: string, max: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (out.length < max && start < text.length) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) {
      out.push(text.slice(start));
      start = text.length;
    } else {
      out.push(text.slice(start, nl + 1));
      start = nl + 1;
    }
  }
  return out;
}

// Rye's own reader accepts padded base64url; Rye OS writes standard base64 with padding.
const SIG_RYE = /^[A-Za-z0-9_-]{80,90}={0,2}$/;
const SIG_RYEOS = /^[A-Za-z0-9_+/-]{80,90}={0,2}$/;

export function findSignature(text: string): SignatureFinding {
  const lines = splitKeepEnds(text, 3);
  for (let idx = 0; idx < lines.length; idx++) {
    const m = SIGNATURE_LINE.exec(lines[idx].replace(/\r?\n$/, ''));
    if (!m) continue;
    const dialect = m[1] as 'rye' | 'ryeos';
    const payload = m[2];
    if (payload === 'TIMESTAMP:HASH:SIGNATURE:KEYID') return { placeholder: true, lineIndex: idx };
    const parts = payload.split(':');
    if (parts.length < 4) return { malformed: `expected ${dialect}:signed:TIMESTAMP:HASH:SIGNATURE:KEYID`, lineIndex: idx };
    const keyId = parts.pop()!;
    const signature = parts.pop()!;
    const hash = parts.pop()!;
    const timestamp = parts.join(':');
    if (!/^[0-9a-f]{64}$/.test(hash)) return { malformed: 'HASH must be 64 lowercase hex digits', lineIndex: idx };
    if (!(dialect === 'rye' ? SIG_RYE : SIG_RYEOS).test(signature)) return { malformed: `SIGNATURE must be an Ed25519 signature in ${dialect === 'rye' ? 'base64url' : 'base64'}`, lineIndex: idx };
    if (!(dialect === 'rye' ? /^[0-9a-f]{16}$/ : /^(?:[0-9a-f]{16}|[0-9a-f]{64})$/).test(keyId)) return { malformed: `KEYID must be ${dialect === 'rye' ? '16' : '16 or 64'} lowercase hex digits`, lineIndex: idx };
    if (!timestamp || Number.isNaN(Date.parse(timestamp))) return { malformed: `TIMESTAMP "${timestamp}" is not a date`, lineIndex: idx };
    return { signature: { timestamp, hash, signature, keyId, lineIndex: idx, dialect } };
  }
  return null;
}

/** The text with the line at lineIndex (and its line break) removed. */
export function removeLine(text: string, lineIndex: number): string {
  const lines = splitKeepEnds(text, lineIndex + 1);
  const before = lines.slice(0, lineIndex).join('');
  return before + text.slice(before.length + (lines[lineIndex]?.length ?? 0));
}

export function hashSignedText(textWithoutSignature: string): string {
  return createHash('sha256').update(textWithoutSignature, 'utf8').digest('hex');
}

function rawPublicKey(key: KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' }) as { x?: string; crv?: string };
  if (jwk.crv !== 'Ed25519' || !jwk.x) throw new Error('not an Ed25519 key');
  return Buffer.from(jwk.x, 'base64url');
}

export function toPublicKey(key: TrustedKey): KeyObject {
  if (typeof key === 'string') {
    return key.includes('PRIVATE KEY') ? createPublicKey(createPrivateKey(key)) : createPublicKey(key);
  }
  if (key instanceof Uint8Array) {
    if (key.length !== 32) throw new Error('raw Ed25519 public keys are 32 bytes');
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(key).toString('base64url') }, format: 'jwk' });
  }
  return key.type === 'private' ? createPublicKey(key) : key;
}

export function keyIdOf(key: TrustedKey): string {
  return createHash('sha256').update(rawPublicKey(toPublicKey(key))).digest('hex').slice(0, 16);
}

export type KeyRing = Map<string, KeyObject>;

const keyRingCache = new WeakMap<readonly TrustedKey[], KeyRing>();

/** keyId -> public key. Keys that cannot be read are skipped (the caller loaded them). */
export function buildKeyRing(keys: readonly TrustedKey[] | undefined): KeyRing {
  if (!keys) return new Map();
  const cached = keyRingCache.get(keys);
  if (cached) return cached;
  const ring: KeyRing = new Map();
  for (const k of keys) {
    try {
      const pub = toPublicKey(k);
      ring.set(keyIdOf(pub), pub);
    } catch {
      /* not an Ed25519 key: ignored */
    }
  }
  keyRingCache.set(keys, ring);
  return ring;
}

/** Check a signed text: hash first, then the signature with a known key. */
export function verifySignedText(text: string, keys: KeyRing | readonly TrustedKey[] | undefined): SkillSignature | null {
  const found = findSignature(text);
  if (!found || !('signature' in found)) return null;
  const s = found.signature;
  const ring = keys instanceof Map ? keys : buildKeyRing(keys);
  const base = { timestamp: s.timestamp, hash: s.hash, signature: s.signature, keyId: s.keyId };
  const actual = hashSignedText(removeLine(text, s.lineIndex));
  if (actual !== s.hash) {
    if (s.dialect === 'ryeos') return { ...base, verified: null, reason: RYEOS_UNVERIFIED };
    return { ...base, verified: false, reason: `content hash ${actual.slice(0, 12)}… does not match the signed hash (file changed after signing)` };
  }
  const key = ring.get(s.keyId.slice(0, 16));
  if (!key || (s.keyId.length === 64 && fingerprintOf(key) !== s.keyId)) return { ...base, verified: null, reason: `unknown key ${s.keyId}` };
  let ok = false;
  try {
    ok = verify(null, Buffer.from(s.hash, 'ascii'), key, Buffer.from(s.signature, /[+/]/.test(s.signature) ? 'base64' : 'base64url'));
  } catch {
    ok = false;
  }
  if (ok) return { ...base, verified: true };
  if (s.dialect === 'ryeos') return { ...base, verified: null, reason: RYEOS_UNVERIFIED };
  return { ...base, verified: false, reason: `signature does not verify with key ${s.keyId}` };
}

/** Why a `ryeos:signed:` line that does not check out is not called a forgery. */
export const RYEOS_UNVERIFIED = 'ryeos:signed: (the current Rye OS dialect) signs a content hash that is not the rye:signed: hash of this file; Skillyard reads the line but cannot check it';

function fingerprintOf(key: KeyObject): string {
  return createHash('sha256').update(rawPublicKey(key)).digest('hex');
}

export type CommentStyle = '#' | '//' | '<!--';

export function commentStyleFor(fileName: string): CommentStyle {
  if (/\.(m?[jt]s|cjs|mts|cts)$/i.test(fileName)) return '//';
  if (/\.(md|markdown|html?)$/i.test(fileName)) return '<!--';
  return '#';
}

/**
 * Sign (or re-sign) a text. The signature goes on line 1, or on line 2 after a
 * shebang; an existing signature line is replaced in place.
 */
export function signText(
  text: string,
  privateKey: string | KeyObject,
  opts: { style?: CommentStyle; timestamp?: Date } = {},
): { text: string; hash: string; keyId: string } {
  const priv = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  const found = findSignature(text);
  let index = 0;
  let body = text;
  if (found) {
    index = 'signature' in found ? found.signature.lineIndex : found.lineIndex;
    body = removeLine(text, index);
  } else if (text.startsWith('#!')) index = 1;
  const hash = hashSignedText(body);
  const sig = sign(null, Buffer.from(hash, 'ascii'), priv).toString('base64url');
  const keyId = keyIdOf(priv);
  const ts = (opts.timestamp ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const payload = `rye:signed:${ts}:${hash}:${sig}:${keyId}`;
  const style = opts.style ?? '#';
  const line = style === '<!--' ? `<!-- ${payload} -->` : `${style} ${payload}`;
  const nl = body.includes('\r\n') ? '\r\n' : '\n';
  let before = splitKeepEnds(body, index).join('');
  // A lone shebang without a line break: sign on line 1 rather than rewrite the body.
  if (index > 0 && !before.endsWith('\n')) before = '';
  return { text: before + line + nl + body.slice(before.length), hash, keyId };
}

export function generateSigningKey(): { privateKeyPem: string; publicKeyPem: string; keyId: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    keyId: keyIdOf(publicKey),
  };
}
