// Name rules shared by every format (SPEC section 2 and section 7).

const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const UNICODE_SKILL_NAME = /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u;
const TOOL_REF = /^[a-z0-9][a-z0-9-]*$/;

/**
 * Agent Skills naming, as its reference validator (skills-ref `_validate_name`) applies it:
 * after NFKC normalisation, 1..64 characters, lowercase, letters (any script), digits and
 * single hyphens, not starting or ending with one. `ação`, `数据-分析` are valid; `Data` is not.
 */
export function isValidSkillName(name: unknown): name is string {
  if (typeof name !== 'string' || name.length === 0) return false;
  if (SKILL_NAME.test(name)) return name.length <= 64;
  const n = name.normalize('NFKC');
  return [...n].length <= 64 && n === n.toLowerCase() && UNICODE_SKILL_NAME.test(n);
}

/** A registry name (URLs, scopes): the ASCII subset of the Agent Skills rule. */
export function isAsciiSkillName(name: string): boolean {
  return name.length <= 64 && SKILL_NAME.test(name);
}

/** Two skill names (or a name and a folder) are the same after NFKC normalisation, as the reference validator compares them. */
export function sameSkillName(a: string, b: string): boolean {
  return a === b || a.normalize('NFKC') === b.normalize('NFKC');
}

/** A canonical tool ref: ^[a-z0-9][a-z0-9-]*$ (the only form agent code may invoke). */
export function isValidToolName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= 128 && TOOL_REF.test(name);
}

/**
 * Canonical tool name: '_' becomes '-' (count_words -> count-words). Case is folded so
 * that `Deploy` and `deploy` cannot become two different refs. The result may still be
 * invalid (spaces, dots...): check it with isValidToolName.
 */
export function canonicalToolName(sourceName: string): string {
  return sourceName.replace(/_/g, '-').toLowerCase();
}

/**
 * Tags are lowercase-with-hyphens in any script: "Data Science" -> "data-science",
 * "Données" -> "données", "数据分析" stays, "C++" and "C#" stay apart ("c++", "c#"). NFKC
 * folds width variants ("ＡＩ" -> "ai"); other punctuation and spaces become one hyphen.
 * Empty tags drop out.
 */
export function normalizeTag(tag: string): string {
  return tag
    .normalize('NFKC')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}+#]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}

/** Normalised, deduplicated tags; `onDropped` hears of a tag with nothing left to keep ("!!!"). */
export function normalizeTags(tags: readonly string[], onDropped?: (tag: string) => void): string[] {
  const out: string[] = [];
  for (const t of tags) {
    const n = normalizeTag(t);
    if (!n) {
      if (t.trim()) onDropped?.(t);
    } else if (!out.includes(n)) out.push(n);
  }
  return out;
}

/** Best-effort skill name from a folder or file name, for manifests that have none. */
export function nameFromPath(base: string): string {
  const n = base
    .replace(/\.(skill\.(md|js|ts|mjs)|md|json|ya?ml|py|ts|js)$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/g, '');
  return n || 'unnamed';
}

const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export function isSemver(v: unknown): v is string {
  return typeof v === 'string' && SEMVER.test(v);
}
