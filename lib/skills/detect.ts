// Finds the skills in a tree of paths and says the format of each. Works on names
// only, so it is the same for a disk folder, an upload and an archive.
//
//   <dir>/SKILL.md            -> agent-skill package rooted at <dir> (nested allowed);
//                                skill.md, Skill.md, SKILL.MD too (the reader warns)
//   <dir>/.ai/tools/**        -> rye package rooted at <dir>
//   <dir>/tools.json          -> malv package (unless inside another package)
//   *.skill.md                -> skill-md   (single file, unless inside a package)
//   *.skill.js / *.skill.ts   -> code-skill (single file, unless inside a package)

import type { SkillFormat } from './types';

export type DetectedSkill = {
  format: SkillFormat;
  /** package directory in the tree ('' = the tree root) */
  root: string;
  /** for single-file formats: the file, relative to root */
  main?: string;
  /** agent-skill: the skill file's name when it is a case variant of SKILL.md */
  marker?: string;
};

const SINGLE_MD = /\.skill\.md$/i;
const SINGLE_CODE = /\.skill\.(m?js|ts)$/i;

export function formatOfSingleFile(path: string): SkillFormat | null {
  const base = path.split('/').pop() ?? path;
  if (SINGLE_MD.test(base)) return 'skill-md';
  if (SINGLE_CODE.test(base)) return 'code-skill';
  return null;
}

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

export function detectSkills(paths: readonly string[]): DetectedSkill[] {
  const roots = new Map<string, SkillFormat>();
  const markers = new Map<string, string>();
  const toolsJsonDirs: string[] = [];
  const singles: string[] = [];
  for (const p of paths) {
    const segs = p.split('/');
    const base = segs[segs.length - 1];
    if (base === 'SKILL.md') {
      roots.set(dirOf(p), 'agent-skill');
      markers.delete(dirOf(p));
    } else if (base.length === 8 && base.toLowerCase() === 'skill.md') {
      const d = dirOf(p);
      if (roots.get(d) !== 'agent-skill' || markers.has(d)) {
        // a case variant; SKILL.md itself wins when both are there
        if (!markers.has(d) || base < markers.get(d)!) markers.set(d, base);
        roots.set(d, 'agent-skill');
      }
    }
    else if (base === 'tools.json') toolsJsonDirs.push(dirOf(p));
    else if (formatOfSingleFile(base)) singles.push(p);
    const ai = segs.indexOf('.ai');
    if (ai >= 0 && segs[ai + 1] === 'tools' && segs.length > ai + 2) {
      const root = segs.slice(0, ai).join('/');
      if (roots.get(root) !== 'agent-skill') roots.set(root, 'rye');
    }
  }
  // A Rye package owns its .ai/ folder, not the skills that stand beside it (a
  // repository with .ai/ at its root still has its other skills found).
  const owner = (p: string, rs: ReadonlySet<string>): string | null => {
    let r = owningRoot(p, rs);
    while (r !== null && roots.get(r) === 'rye' && !isUnderAi(p, r)) r = r === '' ? null : owningRoot(dirOf(r), rs);
    return r;
  };
  const packageRoots = new Set(roots.keys());
  for (const d of toolsJsonDirs) {
    if (roots.has(d)) continue;
    if (owner(d, packageRoots) === null) roots.set(d, 'malv');
  }
  const out: DetectedSkill[] = [...roots.entries()].map(([root, format]) => (markers.has(root) && format === 'agent-skill' ? { format, root, marker: markers.get(root) } : { format, root }));
  const allRoots = new Set(roots.keys());
  for (const s of singles) {
    if (owner(s, allRoots) !== null) continue;
    const root = dirOf(s);
    out.push({ format: formatOfSingleFile(s)!, root, main: root ? s.slice(root.length + 1) : s });
  }
  return out.sort((a, b) => (a.root + '/' + (a.main ?? '')).localeCompare(b.root + '/' + (b.main ?? '')));
}

const isUnderAi = (p: string, root: string) => (root ? p.startsWith(root + '/.ai/') || p === root + '/.ai' : p.startsWith('.ai/') || p === '.ai');

/** The deepest package root that contains `path` (walks up its folders: O(depth)). */
export function owningRoot(path: string, roots: ReadonlySet<string>): string | null {
  let p = path;
  for (;;) {
    if (roots.has(p)) return p;
    if (p === '') return null;
    p = dirOf(p);
  }
}
