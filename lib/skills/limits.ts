// Hostile-input limits (SPEC section 7). Every reader takes them from one place so a
// caller (CLI flag, publish endpoint, test) can tighten or loosen any of them.

export type ReadLimits = {
  /** description longer than this is a warning (listings truncate it) */
  maxDescriptionChars: number;
  /** markdown instructions (SKILL.md / .skill.md body), bytes */
  maxInstructionsBytes: number;
  /** one parsed text file (manifest, frontmatter, handler source), bytes; other files
   *  (fonts, images, vendored scripts) are stored, not parsed, and only count towards
   *  the package limits */
  maxFileBytes: number;
  /** one package (skill), total bytes of all its files */
  maxPackageBytes: number;
  /** one package, number of files */
  maxPackageFiles: number;
  /** one skill, number of tools (a skill page lists them all: 13,000 made a 25 MB page) */
  maxTools: number;
  /** YAML alias expansion budget (yaml's maxAliasCount) */
  maxYamlAliasCount: number;
  /** nesting depth of JSON/YAML/Python/JS literal data */
  maxDepth: number;
  /** recursion of inline://base64 and inline://markdown delegates */
  maxInlineDepth: number;
  /** uncompressed bytes an archive may expand to */
  maxArchiveBytes: number;
  /** entries an archive may hold */
  maxArchiveFiles: number;
  /** files a disk walk collects before giving up (a tree of many skills) */
  maxTreeFiles: number;
  /** directory depth of a disk walk */
  maxTreeDepth: number;
};

export const DEFAULT_LIMITS: Readonly<ReadLimits> = Object.freeze({
  maxDescriptionChars: 1024,
  maxInstructionsBytes: 256 * 1024,
  maxFileBytes: 1024 * 1024,
  maxPackageBytes: 50 * 1024 * 1024,
  maxPackageFiles: 2000,
  maxTools: 256,
  maxYamlAliasCount: 10_000,
  maxDepth: 64,
  maxInlineDepth: 8,
  maxArchiveBytes: 50 * 1024 * 1024,
  maxArchiveFiles: 2000,
  maxTreeFiles: 200_000,
  maxTreeDepth: 32,
});

export function resolveLimits(partial?: Partial<ReadLimits>): ReadLimits {
  const out = { ...DEFAULT_LIMITS };
  for (const [k, v] of Object.entries(partial ?? {})) if (typeof v === 'number' && v > 0 && k in out) out[k as keyof ReadLimits] = v;
  return out;
}

/** Environment variable for each limit (SKILLYARD_MAX_PACKAGE_BYTES=...), read by the CLI and the server. */
export const LIMIT_ENV: Readonly<Record<keyof ReadLimits, string>> = Object.freeze(
  Object.fromEntries(Object.keys(DEFAULT_LIMITS).map((k) => [k, 'SKILLYARD_' + k.replace(/[A-Z]/g, (c) => '_' + c).toUpperCase()])) as Record<keyof ReadLimits, string>,
);

/** The limits an environment sets (positive integers only; anything else is ignored). */
export function limitsFromEnv(env: Record<string, string | undefined>): Partial<ReadLimits> {
  const out: Partial<ReadLimits> = {};
  for (const [k, name] of Object.entries(LIMIT_ENV)) {
    const raw = env[name];
    if (raw && /^\d+$/.test(raw.trim()) && Number(raw) > 0) out[k as keyof ReadLimits] = Number(raw);
  }
  return out;
}

/** A package sent as a multipart form (the web publish): the package limit plus room for the part headers and the paths list. */
export function uploadBodyBytes(limits: Pick<ReadLimits, 'maxPackageBytes'>): number {
  return limits.maxPackageBytes + 4 * 1024 * 1024;
}
