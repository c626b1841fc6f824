// Paths that are one path on a case-insensitive or normalising disk (macOS and Windows by
// default): `notes.md` and `NOTES.md`, `café.md` in NFC and in NFD, or a file `docs` beside
// a folder `Docs/`. `skillyard add` cannot write both, so a publish refuses them and names
// the two paths.
import type { Diagnostic } from '../skills';

/** The name as such a disk compares it: canonical composition, case folded (over-approximated: ß = ss). */
const fold = (s: string) => s.normalize('NFD').toUpperCase().toLowerCase().normalize('NFC');

export function pathCollisions(paths: readonly string[], max = 20): Diagnostic[] {
  const seen = new Map<string, { path: string; dir: boolean }>();
  const out: Diagnostic[] = [];
  const add = (path: string, dir: boolean) => {
    const key = fold(path);
    const other = seen.get(key);
    if (!other) {
      seen.set(key, { path, dir });
      return;
    }
    // the same folder named twice, or the same file twice (readSkillsFromFiles says path/duplicate)
    if (other.path === path && other.dir === dir) return;
    if (out.length >= max) return;
    const what = (p: string, d: boolean) => (d ? `folder ${p}/` : p);
    out.push({
      severity: 'error',
      code: 'publish/path-collision',
      message: `${what(other.path, other.dir)} and ${what(path, dir)} are one path on a case-insensitive or Unicode-normalising disk (macOS, Windows), where \`skillyard add\` could not write both; rename one`,
      file: path,
    });
  };
  for (const p of paths) {
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) add(parts.slice(0, i).join('/'), true);
    add(p, false);
  }
  return out;
}
