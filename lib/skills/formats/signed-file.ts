import { findSignature, RYEOS_UNVERIFIED, verifySignedText } from '../signature';
import { nameFromPath } from '../names';
import { newManifest, type Pkg } from '../package';
import type { SkillFormat, SkillSignature } from '../types';

/** Parse and verify a `rye:signed:` comment; report malformed and failing signatures. */
export function verifyFileSignature(text: string, pkg: Pkg, rel: string): SkillSignature | null {
  const found = findSignature(text);
  if (!found) return null;
  const scope = pkg.scope(rel);
  if ('placeholder' in found) {
    scope.warn('signature/placeholder', 'the signature line is the template placeholder; sign the file (skillyard sign) or remove the line', undefined, found.lineIndex + 1);
    return null;
  }
  if ('malformed' in found) {
    scope.error('signature/malformed', `signature comment is malformed: ${found.malformed}`, undefined, found.lineIndex + 1);
    return null;
  }
  const sig = verifySignedText(text, pkg.opts.keyRing);
  if (sig && sig.reason === RYEOS_UNVERIFIED) scope.warn('signature/dialect-unverified', `signature not checked: ${RYEOS_UNVERIFIED}`, undefined, found.signature.lineIndex + 1);
  if (sig && sig.verified === false) {
    const code = sig.reason?.startsWith('content hash') ? 'signature/hash-mismatch' : 'signature/invalid';
    scope.error(code, `signature does not verify: ${sig.reason}`, undefined, found.signature.lineIndex + 1);
  }
  return sig;
}

/**
 * The common start of a single-file skill (`<name>.skill.md`, `<name>.skill.ts`): its
 * manifest named after the file, its text, and its signature checked. `text` is null
 * when the file cannot be read (the reader has said why).
 */
export function startSingleFileSkill(pkg: Pkg, rel: string, suffix: RegExp, format: SkillFormat) {
  const base = rel.split('/').pop()!;
  const stem = base.replace(suffix, '');
  const manifest = newManifest(nameFromPath(stem), format);
  manifest.files = [rel];
  const text = pkg.readText(rel);
  if (text === null) return { manifest, base, stem, text: null, scope: null };
  const scope = pkg.scope(rel);
  manifest.signature = verifyFileSignature(text, pkg, rel);
  return { manifest, base, stem, text, scope };
}
