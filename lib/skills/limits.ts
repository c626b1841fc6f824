// Hostile-input limits (SPEC section 7). Every reader takes them from one place so a
// caller (CLI flag, publish endpoint, test) can tighten or loosen any of them.

export type ReadLimits = {
  /** description longer than this is a warning (listings truncate it) */
  maxDescriptionChars: number;
  /** markdown instructions (SKILL.md / .skill.md body), bytes */
  maxInstructionsBytes: number;
  /** one file, bytes: larger files are not read */
  maxFileBytes: number;
  /** one package (skill), total bytes */
  maxPackageBytes: number;
  /** one package, number of files */
  maxPackageFiles: number;
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
  maxPackageBytes: 5 * 1024 * 1024,
  maxPackageFiles: 500,
  maxYamlAliasCount: 10_000,
  maxDepth: 64,
  maxInlineDepth: 8,
  maxArchiveBytes: 5 * 1024 * 1024,
  maxArchiveFiles: 500,
  maxTreeFiles: 200_000,
  maxTreeDepth: 32,
});

export function resolveLimits(partial?: Partial<ReadLimits>): ReadLimits {
  return { ...DEFAULT_LIMITS, ...(partial ?? {}) };
}
