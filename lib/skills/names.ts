// Name rules shared by every format (SPEC section 2 and section 7).

const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const TOOL_REF = /^[a-z0-9][a-z0-9-]*$/;

/** Agent Skills naming: a-z 0-9 '-', 1..64, no '--', no leading/trailing '-'. */
export function isValidSkillName(name: unknown): name is string {
  return typeof name === 'string' && name.length >= 1 && name.length <= 64 && SKILL_NAME.test(name);
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

/** Tags are lowercase-with-hyphens: "Data Science" -> "data-science"; empty tags drop out. */
export function normalizeTag(tag: string): string {
  return tag
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function normalizeTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const t of tags) {
    const n = normalizeTag(t);
    if (n && !out.includes(n)) out.push(n);
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
