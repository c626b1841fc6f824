// The index of loaded tools and how a ref names one: a bare canonical tool name or `skill/tool`
// (optionally `@scope/skill/tool`). URIs and paths are refused: they would load code that
// never went through publishing.

import type { ToolManifest } from '../skills';
import { RuntimeError } from './errors';
import type { LoadedSkill } from './types';

export type ToolEntry = { skill: LoadedSkill; tool: ToolManifest; ref: string; order: number };

const REF = /^(?:(?:@([a-z0-9][a-z0-9-]*)\/)?([a-z0-9][a-z0-9-]*)\/)?([a-z0-9][a-z0-9_-]*)$/;

export function createToolIndex(skills: LoadedSkill[]) {
  const entries: ToolEntry[] = [];
  skills.forEach((skill) => {
    for (const tool of skill.manifest.tools) {
      entries.push({ skill, tool, ref: `${skill.manifest.name}/${tool.name}`, order: entries.length });
    }
  });

  function resolve(ref: unknown, from: LoadedSkill | null): ToolEntry {
    if (typeof ref !== 'string' || ref.length === 0 || ref.length > 200) {
      throw new RuntimeError('ref/invalid', 'a tool ref must be a non-empty string (a tool name or skill/tool)');
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(ref) || /^[./~\\]/.test(ref) || ref.includes('..') || ref.includes('\\')) {
      throw new RuntimeError('ref/invalid', `'${ref.slice(0, 80)}' is a URI or a path; tools are invoked by name (tool or skill/tool) only`);
    }
    const m = REF.exec(ref);
    if (!m) {
      throw new RuntimeError('ref/invalid', `'${ref.slice(0, 80)}' is not a tool name (lowercase letters, digits and '-', optionally skill/tool)`);
    }
    const [, scope, skillName, rawTool] = m;
    const toolName = rawTool.replace(/_/g, '-');
    let candidates = entries.filter((e) => e.tool.name === toolName);
    if (skillName) {
      candidates = candidates.filter((e) => e.skill.manifest.name === skillName && (!scope || e.skill.scope === scope));
    }
    if (candidates.length === 0) throw new RuntimeError('tool/not-found', `no loaded tool is named '${ref}'`);
    // A skill's own tool wins, then one of its own scope (its publisher's); otherwise the
    // last-loaded skill overrides (Skill Tools spec). A foreign skill loaded later never
    // shadows a tool of the caller's own scope (and a call across scopes is refused anyway,
    // invoke-tool.ts).
    const own = from ? candidates.filter((e) => e.skill === from) : [];
    const sameScope = from && !own.length ? candidates.filter((e) => sameScopeAs(e.skill, from)) : [];
    const pool = own.length ? own : sameScope.length ? sameScope : candidates;
    return pool.reduce((a, b) => (b.order > a.order ? b : a));
  }

  return { entries, resolve };
}

export type ToolIndex = ReturnType<typeof createToolIndex>;

/** Whether two skills have the same publisher: the same registry scope, or both local (no scope). */
export function sameScopeAs(a: LoadedSkill, b: LoadedSkill): boolean {
  return (a.scope ?? null) === (b.scope ?? null);
}
