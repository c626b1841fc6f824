// Author, license and source link of a skill, from whichever manifest field its format
// uses (top-level frontmatter keys land in `metadata`; npm-style objects are accepted).
import type { SkillManifest } from '@/lib/skills';

export type PackageFacts = { author: string | null; license: string | null; source: string | null; homepage: string | null };

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : null);
const named = (v: unknown): string | null => text(v) ?? (v && typeof v === 'object' ? text((v as { name?: unknown }).name) : null);
const url = (v: unknown): string | null => {
  const raw = text(v) ?? (v && typeof v === 'object' ? text((v as { url?: unknown }).url) : null);
  if (!raw) return null;
  const cleaned = raw.replace(/^git\+/, '');
  return /^https?:\/\//.test(cleaned) ? cleaned : null; // never a javascript: or file: link
};

export function packageFacts(m: SkillManifest): PackageFacts {
  const meta = (m.metadata ?? {}) as Record<string, unknown>;
  return {
    author: named(meta.author) ?? named(meta.authors),
    license: text(meta.license),
    source: url(meta.repository) ?? url(meta.source),
    homepage: url(meta.homepage),
  };
}
