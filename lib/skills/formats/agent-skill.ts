// Agent Skills folder: SKILL.md (+ optional Skill Tools tools.json and scripts/).

import { resolveDelegate } from '../delegate';
import { canonicalToolName, isValidToolName, nameFromPath } from '../names';
import { newManifest, newTool, type Pkg } from '../package';
import { applySkillFields, applyToolFields, checkInstructions, readMarkdownSkill } from '../skill-frontmatter';
import { verifyFileSignature } from './signed-file';
import { readToolsJson } from '../tools-json';
import type { SkillManifest } from '../types';

export function readAgentSkill(pkg: Pkg): SkillManifest {
  const m = newManifest(pkg.dirName ?? 'unnamed', 'agent-skill');
  m.files = pkg.fileList();
  const text = pkg.readText('SKILL.md');
  if (text === null) return m;
  const scope = pkg.scope('SKILL.md');
  m.signature = verifyFileSignature(text, pkg, 'SKILL.md');
  const { fm, body, bodyLine, fmScope } = readMarkdownSkill(text, pkg, scope);
  m.instructions = checkInstructions(body, pkg, scope, bodyLine);
  if (!fm) return m;
  if (fm.name) {
    m.name = fm.name;
    if (pkg.dirName !== null && fm.name !== pkg.dirName) {
      fmScope.error('skill/name-dir-mismatch', `name "${fm.name}" must match the folder name "${pkg.dirName}"`, '/name');
    }
  } else m.name = nameFromPath(pkg.dirName ?? 'unnamed');
  applySkillFields(m, fm);

  if (pkg.has('tools.json')) m.tools.push(...readToolsJson(pkg, 'tools.json', 'skill-tools'));
  if (fm.delegate) {
    // A delegating folder skill is itself a tool named after the skill.
    const d = resolveDelegate(fm.delegate, pkg, fmScope, '/metadata/delegate', '');
    const t = newTool(isValidToolName(canonicalToolName(m.name)) ? canonicalToolName(m.name) : nameFromPath(m.name), m.name);
    applyToolFields(t, fm, m.description);
    t.role = fm.role ?? 'context';
    if (d) t.handler = { kind: d.kind, ref: d.ref };
    if (m.tools.some((x) => x.name === t.name)) fmScope.error('tool/duplicate-name', `tools.json already declares a tool named "${t.name}"`, '/name');
    else m.tools.unshift(t);
  } else if (fm.params || fm.returns) {
    fmScope.warn('skill/params-without-tool', 'metadata.params/returns have no effect without metadata.delegate (an instruction-only skill takes no arguments)', '/metadata');
  }
  if (!m.instructions && m.tools.length === 0) scope.warn('skill/instructions-empty', 'SKILL.md has no instructions and the skill has no tools', undefined, bodyLine);
  return m;
}
