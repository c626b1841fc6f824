import { findSignature, verifySignedText } from '../signature';
import type { Pkg } from '../package';
import type { SkillSignature } from '../types';

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
  if (sig && sig.verified === false) {
    const code = sig.reason?.startsWith('content hash') ? 'signature/hash-mismatch' : 'signature/invalid';
    scope.error(code, `signature does not verify: ${sig.reason}`, undefined, found.signature.lineIndex + 1);
  }
  return sig;
}
