// One signature for a Rye package: a lone signed file's, or an aggregate of all files.

import { createHash } from 'node:crypto';
import type { SkillSignature } from '../../types';

export function combineSignatures(sigs: Record<string, SkillSignature>, fileCount: number): SkillSignature | null {
  const list = Object.entries(sigs).sort(([a], [b]) => a.localeCompare(b));
  if (list.length === 0) return null;
  if (list.length === 1 && fileCount === 1) return list[0][1];
  const all = list.map(([, s]) => s);
  const keyIds = new Set(all.map((s) => s.keyId));
  const unsigned = fileCount - list.length;
  const verified = all.some((s) => s.verified === false) ? false : unsigned === 0 && all.every((s) => s.verified === true) ? true : null;
  const reasons = list.filter(([, s]) => s.verified !== true).map(([p, s]) => `${p}: ${s.reason ?? 'not verified'}`);
  if (unsigned) reasons.push(`${unsigned} tool file(s) unsigned`);
  return {
    timestamp: all.map((s) => s.timestamp).sort().pop()!,
    hash: createHash('sha256').update(list.map(([p, s]) => `${p}:${s.hash}`).join('\n')).digest('hex'),
    signature: all.length === 1 ? all[0].signature : 'multiple',
    keyId: keyIds.size === 1 ? [...keyIds][0] : 'multiple',
    verified,
    ...(reasons.length ? { reason: reasons.join('; ') } : {}),
  };
}
