// Agent Skills folder: SKILL.md (+ optional Skill Tools tools.json and scripts/).
// Independent checks all run: a broken frontmatter does not hide a broken tools.json.

import { resolveDelegate } from '../delegate';
import { canonicalToolName, isValidSkillName, isValidToolName, nameFromPath, sameSkillName } from '../names';
import { newManifest, newTool, type Pkg } from '../package';
import { applySkillFields, applyToolFields, checkInstructions, readMarkdownSkill } from '../skill-frontmatter';
import { skillFileFacts } from '../agents';
import { verifyFileSignature } from './signed-file';
import { readToolsJson } from '../tools-json';
import type { SkillManifest } from '../types';

/** `marker` is the skill file as found (SKILL.md, or a case variant such as skill.md). */
export function readAgentSkill(pkg: Pkg, marker = 'SKILL.md'): SkillManifest {
  const folderName = pkg.dirName ?? 'unnamed';
  const m = newManifest(isValidSkillName(folderName) ? folderName : nameFromPath(folderName), 'agent-skill');
  pkg.loaderFacts = { ...skillFileFacts('', marker, pkg.dirName, null), fence: 'none' };
  m.files = pkg.fileList();
  if (marker !== 'SKILL.md') {
    pkg.scope(marker).warn('skill/file-name-case', `the skill file is named ${marker}; the Agent Skills spec names it SKILL.md (agents on case-sensitive file systems may not find it)`, undefined, 1);
  }
  const text = pkg.readText(marker);
  const md = text === null ? null : readSkillFile(pkg, m, marker, text);
  // A tools.json that is an MCP tool list (inputSchema) is read as one, as in a malv app.
  if (pkg.has('tools.json')) m.tools.push(...readToolsJson(pkg, 'tools.json', 'skill-tools', (d) => (m.metadata = { ...m.metadata, toolsFormat: d }), m.name));
  if (md?.fm?.delegate) {
    // A delegating folder skill is itself a tool named after the skill.
    const fm = md.fm;
    const d = resolveDelegate(fm.delegate!, pkg, md.fmScope, '/metadata/delegate', '');
    const t = newTool(isValidToolName(canonicalToolName(m.name)) ? canonicalToolName(m.name) : nameFromPath(m.name), m.name);
    applyToolFields(t, fm, m.description, md.fmScope);
    t.role = fm.role ?? 'context';
    if (d) t.handler = { kind: d.kind, ref: d.ref };
    if (m.tools.some((x) => x.name === t.name)) md.fmScope.error('tool/duplicate-name', `tools.json already declares a tool named "${t.name}"`, '/name');
    else m.tools.unshift(t);
  } else if (md?.fm && (md.fm.params || md.fm.returns)) {
    md.fmScope.warn('skill/params-without-tool', 'metadata.params/returns have no effect without metadata.delegate (an instruction-only skill takes no arguments)', '/metadata');
  }
  if (md?.fm && !m.instructions && m.tools.length === 0) pkg.scope(marker).warn('skill/instructions-empty', `${marker} has no instructions and the skill has no tools`, undefined, md.bodyLine);
  return m;
}

function readSkillFile(pkg: Pkg, m: SkillManifest, marker: string, text: string) {
  const scope = pkg.scope(marker);
  m.signature = verifyFileSignature(text, pkg, marker);
  const md = readMarkdownSkill(text, pkg, scope, { fallbackName: m.name, fallbackFrom: 'folder', fallbackSource: pkg.dirName ?? undefined, agentApps: 'detect' });
  pkg.loaderFacts = skillFileFacts(text, marker, pkg.dirName, md.raw ?? null);
  m.instructions = checkInstructions(md.body, pkg, scope, md.bodyLine);
  const name = md.fm?.name ?? md.partialName ?? null;
  if (name) {
    m.name = name;
    if (pkg.dirName !== null && !sameSkillName(name, pkg.dirName)) {
      md.fmScope.error('skill/name-dir-mismatch', `name "${name}" must match the folder name "${pkg.dirName}"`, '/name');
    }
  }
  if (md.fm) applySkillFields(m, md.fm);
  return md;
}
