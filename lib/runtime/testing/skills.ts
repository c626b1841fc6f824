// Builders for in-memory skills in tests and benchmarks: a manifest plus a files map.

import type { SkillManifest, ToolManifest } from '../../skills/types';
import type { LoadedSkill } from '../types';
import { newTool } from '../../skills/package';

export function tool(name: string, over: Partial<ToolManifest> = {}): ToolManifest {
  return { ...newTool(name, name), description: `${name} tool`, ...over };
}

export function skill(
  name: string,
  tools: ToolManifest[],
  opts: { format?: SkillManifest['format']; files?: Record<string, string>; scope?: string | null; over?: Partial<SkillManifest> } = {},
): LoadedSkill {
  const files = opts.files ?? {};
  return {
    manifest: {
      name,
      description: `${name} skill`,
      format: opts.format ?? 'code-skill',
      version: '1.0.0',
      instructions: null,
      allowedTools: null,
      metadata: {},
      tools,
      files: Object.keys(files),
      signature: null,
      diagnostics: [],
      ...opts.over,
    },
    scope: opts.scope ?? null,
    async readFile(path: string) {
      const text = files[path.replace(/^\.\//, '')];
      if (text === undefined) throw new Error(`no such file: ${path}`);
      return text;
    },
  };
}

/** A one-tool code skill whose handler is `source` (agent-apps convention). */
export function codeSkill(name: string, source: string, over: Partial<ToolManifest> = {}, opts: Parameters<typeof skill>[2] = {}): LoadedSkill {
  const file = `${name}.skill.js`;
  return skill(name, [tool(name, { handler: { kind: 'js', ref: file }, ...over })], {
    ...opts,
    files: { [file]: source, ...(opts.files ?? {}) },
  });
}
