// readSkillsFromFiles: an in-memory tree (upload, archive, or a disk walk) -> manifests.
// Packages are read one at a time; with `onSkill` each manifest is handed over as soon
// as it is ready and not kept (a tree of 100,000 files stays small in memory).

import { agentVerdicts, factsForFormat } from './agents';
import { detectSkills, owningRoot, type DetectedSkill } from './detect';
import { addToGroup } from './group';
import { DiagnosticSink } from './diagnostic-sink';
import { readAgentSkill } from './formats/agent-skill';
import { readCodeSkill } from './formats/code-skill';
import { readMalv } from './formats/malv';
import { readRye } from './formats/rye';
import { readSkillMd } from './formats/skill-md';
import { resolveLimits, type ReadLimits } from './limits';
import { nameFromPath } from './names';
import { newManifest, Pkg, type TreeFile } from './package';
import { buildKeyRing, type TrustedKey } from './signature';
import type { Diagnostic, SkillManifest } from './types';

export type ReadOptions = {
  limits?: Partial<ReadLimits>;
  /** public keys trusted for Rye signatures (PEM text, raw 32 bytes or KeyObjects) */
  trustedKeys?: readonly TrustedKey[];
  /**
   * Name of the tree's root folder, when the files are the inside of one package (an
   * upload of a folder's contents, an archive without a top folder). Used for the
   * SKILL.md name/folder check and as the fallback name of malv and Rye packages.
   */
  rootName?: string;
  /**
   * Called with each manifest as soon as it is read; the result's `skills` is then
   * empty (stream them instead of holding thousands in memory).
   */
  onSkill?: (skill: SkillManifest) => void;
};

export type ReadResult = { skills: SkillManifest[]; diagnostics: Diagnostic[] };

/**
 * A symbolic link found by a disk walk. `followed`: it resolves inside the folder being
 * read and is read as its target (`folder`: its files are listed below its path); the
 * other states are never opened.
 */
export type LinkInfo = { target: string; state: 'followed' | 'outside' | 'broken' | 'loop'; folder?: boolean; real?: string };

export type InputFile = {
  path: string;
  content: Uint8Array | null;
  size?: number;
  /** a link that is not followed (see `link` for why, when known) */
  symlink?: boolean;
  link?: LinkInfo;
  tooLarge?: boolean;
  unreadable?: string;
  /** reads the content on demand (disk walks); content stays null until then */
  load?: () => Uint8Array;
};

/** Normalise an untrusted path; null when it climbs out, is absolute or is empty. */
export function normalizeTreePath(raw: string): string | null {
  const p = raw.replace(/\\/g, '/');
  if (p.startsWith('/') || /^[a-zA-Z]:\//.test(p) || p.includes('\0')) return null;
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') return null;
    out.push(seg);
  }
  return out.length ? out.join('/') : null;
}

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

export function readSkillsFromFiles(files: readonly InputFile[], opts: ReadOptions = {}): ReadResult {
  const limits = resolveLimits(opts.limits);
  const keyRing = buildKeyRing(opts.trustedKeys);
  const top = new DiagnosticSink();
  const tree = new Map<string, TreeFile>();
  // followed folder links: not files, a note for the package they stand in
  const folderLinks: { path: string; target: string }[] = [];
  for (const f of files) {
    const path = normalizeTreePath(String(f.path ?? ''));
    if (path === null) {
      top.error('path/outside-package', `"${String(f.path).slice(0, 200)}" is absolute or climbs out of the package; it was skipped`, { file: String(f.path).slice(0, 200) });
      continue;
    }
    if (f.link?.folder && f.link.state === 'followed') {
      folderLinks.push({ path, target: f.link.target });
      continue;
    }
    if (tree.has(path)) {
      top.error('path/duplicate', `${path} appears twice`, { file: path });
      continue;
    }
    const content = f.content instanceof Uint8Array ? f.content : null;
    const size = f.size ?? content?.length ?? 0;
    tree.set(path, { path, content, size, symlink: f.symlink, link: f.link ? { target: f.link.target, state: f.link.state } : undefined, tooLarge: f.tooLarge || size > limits.maxFileBytes, unreadable: f.unreadable, load: f.load });
  }
  const notes = new Map<string, Diagnostic[]>();
  const addNote = (root: string, d: Diagnostic) => addToGroup(notes, root, d);
  const detected = withoutFragments(detectSkills([...tree.keys()]), tree, addNote);
  if (detected.length === 0) {
    top.error('detect/no-skills', tree.size ? 'no skill found: expected SKILL.md, *.skill.md, *.skill.js/ts, a malv tools.json or .ai/tools/' : 'no files to read');
  }
  // Assign every file to its deepest package root. Links outside every package are not
  // any package's concern (an AGENTS.md link at a repository root).
  const roots = new Set(detected.filter((d) => !d.main).map((d) => d.root));
  const ryeRoots = new Set(detected.filter((d) => d.format === 'rye').map((d) => d.root));
  const byRoot = new Map<string, Map<string, TreeFile>>();
  for (const r of roots) byRoot.set(r, new Map());
  // files no package owns, and files of a Rye package outside its .ai/ folder: where a
  // single-file skill and its delegates may stand
  const loose = new Map<string, TreeFile>();
  for (const f of tree.values()) {
    const r = owningRoot(dirOf(f.path), roots);
    if (r === null) {
      loose.set(f.path, f);
      // A broken link outside every package is often a skill folder that is gone.
      if (f.link?.state === 'broken') top.warn('path/symlink-broken-orphan', `${f.path} links to ${f.link.target}, which does not exist (if it was a skill, it is missing)`, { file: f.path });
    } else {
      byRoot.get(r)!.set(r ? f.path.slice(r.length + 1) : f.path, f);
      if (ryeRoots.has(r) && !(r ? f.path.startsWith(`${r}/.ai/`) : f.path.startsWith('.ai/'))) loose.set(f.path, f);
    }
  }
  for (const l of folderLinks) {
    // the link may be the skill folder itself
    const r = owningRoot(l.path, roots);
    if (r !== null) addNote(r, { severity: 'note', code: 'path/symlink-followed', message: `${r && l.path.startsWith(r + '/') ? l.path.slice(r.length + 1) : l.path.split('/').pop()} is a symbolic link to ${l.target}, inside the folder being read: read as its target`, file: l.path });
  }
  tree.clear();
  const skills: SkillManifest[] = [];
  const emit = opts.onSkill ?? ((m: SkillManifest) => skills.push(m));
  for (const d of detected) {
    if (d.main) {
      // A single-file skill is its own file; a delegate may point at a file beside it or
      // below it, but never into another package.
      const prefix = d.root ? d.root + '/' : '';
      const files = new Map<string, TreeFile>([[d.main, loose.get(prefix + d.main)!]]);
      const lookup = (rel: string) => loose.get(prefix + rel);
      emit(readOne(d, files, { limits, keyRing }, opts.rootName ?? null, lookup));
    } else {
      emit(readOne(d, byRoot.get(d.root)!, { limits, keyRing }, opts.rootName ?? null, undefined, notes.get(d.root)));
      byRoot.delete(d.root);
    }
  }
  return { skills, diagnostics: top.list };
}

/**
 * A SKILL.md without frontmatter inside another package is a fragment of that package (a
 * template, an example), not a skill of its own: it is read as one of its files, with a
 * note on the package.
 */
function withoutFragments(detected: DetectedSkill[], tree: Map<string, TreeFile>, addNote: (root: string, d: Diagnostic) => void): DetectedSkill[] {
  const roots = new Set(detected.filter((d) => !d.main).map((d) => d.root));
  const dropped = new Set<string>();
  for (const d of detected) {
    if (d.format !== 'agent-skill' || d.main || d.root === '') continue;
    const outer = owningRoot(dirOf(d.root), roots);
    if (outer === null) continue;
    const file = `${d.root}/${d.marker ?? 'SKILL.md'}`;
    const f = tree.get(file);
    if (!f || f.symlink || f.tooLarge || f.unreadable) continue;
    let head: Uint8Array | null = f.content;
    try {
      head ??= f.load?.() ?? null;
    } catch {
      continue;
    }
    if (!head) continue;
    const text = new TextDecoder().decode(head.subarray(0, 4096)).replace(/^\uFEFF/, '');
    if (/^(?:[^\n]*(?:rye|ryeos):signed:[^\n]*\n)?---[ \t]*\r?\n/.test(text)) continue;
    dropped.add(d.root);
    const rel = outer ? file.slice(outer.length + 1) : file;
    addNote(outer, { severity: 'note', code: 'skill/fragment', message: `${rel} has no frontmatter: it is read as a file of this skill, not as a skill of its own`, file });
  }
  return dropped.size ? detected.filter((d) => d.main || !dropped.has(d.root)) : detected;
}

function readOne(
  d: DetectedSkill,
  files: Map<string, TreeFile>,
  o: { limits: ReadLimits; keyRing: ReturnType<typeof buildKeyRing> },
  rootName: string | null,
  lookup?: (rel: string) => TreeFile | undefined,
  notes: Diagnostic[] = [],
): SkillManifest {
  const dirName = d.root ? d.root.split('/').pop()! : rootName;
  const pkg = new Pkg(d.root, files, o, dirName, lookup);
  let m: SkillManifest;
  try {
    // Package limits first: they bound everything after. Only parsed files have the
    // one-file limit (Pkg.readText); fonts and images just count towards the package.
    const own = d.main ? [files.get(d.main)].filter((f): f is TreeFile => !!f) : [...files.values()];
    if (!d.main) {
      if (own.length > o.limits.maxPackageFiles) pkg.sink.error('package/too-many-files', `the package has ${own.length} files; the limit is ${o.limits.maxPackageFiles}`, { file: d.root || '.' });
      const total = own.reduce((s, f) => s + f.size, 0);
      if (total > o.limits.maxPackageBytes) pkg.sink.error('package/too-large', `the package is ${total} bytes; the limit is ${o.limits.maxPackageBytes}`, { file: d.root || '.' });
    }
    for (const f of own) reportLink(pkg, f.path, f.symlink ? f.link ?? null : f.link?.state === 'followed' ? f.link : undefined);
    for (const n of notes) pkg.sink.note(n.code, n.message, { file: n.file });
    for (const f of own) if (f.unreadable) pkg.sink.error('file/unreadable', `${f.path} could not be read: ${f.unreadable}`, { file: f.path });
    switch (d.format) {
      case 'agent-skill':
        m = readAgentSkill(pkg, d.marker);
        break;
      case 'malv':
        m = readMalv(pkg);
        break;
      case 'rye':
        m = readRye(pkg);
        break;
      case 'skill-md':
        m = readSkillMd(pkg, d.main!);
        break;
      case 'code-skill':
        m = readCodeSkill(pkg, d.main!);
        break;
    }
  } catch (e) {
    // A reader bug must not take the other skills down: report it on this one.
    m = newManifest(nameFromPath(d.main ?? dirName ?? 'unnamed'), d.format);
    pkg.sink.error('reader/internal-error', `the ${d.format} reader failed: ${(e as Error)?.message ?? String(e)}`, { file: d.main ? pkg.treePath(d.main) : d.root || '.' });
  }
  // a skill's page, its MCP tool list and the playground list every tool: bound them
  if (m.tools.length > o.limits.maxTools) {
    pkg.sink.error('package/too-many-tools', `the skill has ${m.tools.length} tools; the limit is ${o.limits.maxTools} (maxTools, SKILLYARD_MAX_TOOLS)`, { file: d.main ? pkg.treePath(d.main) : d.root || '.' });
  }
  // `net` reaches only the hosts the skill lists (lib/runtime/capabilities/net.ts reads the
  // same keys): a tool declaring it with none listed would have every fetch refused
  // (tools.json formats only, where the author declares capabilities; MCP tools are left
  // out: their server's address comes from the MCP configuration)
  const declared = m.format === 'malv' || m.format === 'agent-skill';
  const netTools = declared ? m.tools.filter((t) => t.capabilities.includes('net') && t.handler.kind !== 'mcp').map((t) => t.name) : [];
  if (netTools.length && !listsNetHosts(m.metadata)) {
    pkg.sink.warn('tool/net-no-hosts', `${netTools.join(', ')} declare${netTools.length === 1 ? 's' : ''} the net capability, but the skill lists no hosts (metadata.net.hosts): every fetch will be refused`, { file: d.main ? pkg.treePath(d.main) : d.root || '.' });
  }
  m.source = d.main ? pkg.treePath(d.main) : d.root || '.';
  const viaSymlink = notes.some((n) => n.code === 'path/symlink-followed' && n.file === d.root);
  m.agents = agentVerdicts(pkg.loaderFacts ? { ...pkg.loaderFacts, viaSymlink } : factsForFormat(m.format));
  m.diagnostics = pkg.sink.list;
  return m;
}

/** One diagnostic per link, saying which kind it is (undefined: not a link; null: a link of unknown kind, as in an archive). */
function reportLink(pkg: Pkg, file: string, link: TreeFile['link'] | null | undefined): void {
  if (link === undefined) return;
  const where = { file };
  // messages name the link inside its package (the diagnostic's file is the full path)
  file = pkg.root && file.startsWith(pkg.root + '/') ? file.slice(pkg.root.length + 1) : file;
  if (link === null) pkg.sink.error('path/symlink', `${file} is a symbolic link; links are never followed`, where);
  else if (link.state === 'followed') pkg.sink.note('path/symlink-followed', `${file} is a symbolic link to ${link.target}, inside the folder being read: read as its target`, where);
  else if (link.state === 'outside') pkg.sink.error('path/symlink-outside', `${file} is a symbolic link to ${link.target}, outside the folder being read: not followed`, where);
  else if (link.state === 'broken') pkg.sink.error('path/symlink-broken', `${file} is a broken symbolic link: ${link.target} does not exist`, where);
  else pkg.sink.error('path/symlink-loop', `${file} is a symbolic link to ${link.target}, which loops back to a folder above it: not followed`, where);
}

function listsNetHosts(metadata: Record<string, unknown> | undefined): boolean {
  const m = metadata ?? {};
  const net = m.net && typeof m.net === 'object' ? (m.net as { hosts?: unknown }).hosts : undefined;
  return [net, m.allowedHosts, m['allowed-hosts'], m.hosts].some((l) => (Array.isArray(l) ? l.some((h) => typeof h === 'string' && h) : typeof l === 'string' && l.trim() !== ''));
}
