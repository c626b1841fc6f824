// Which calling convention a handler expects, decided by the format it was written in, so a
// handler written for any seed format runs unchanged:
//   agent-apps  fn(ctx, args)                       code skills, .skill.md delegates, SKILL.md delegates
//   skill-tools fn(args) with args.__workDir        tools.json `script` handlers of a folder skill
//   malv        fn(input, capabilities)             malv tools.json
//   rye         execute(params, project_path) | main(params), returning {success, ...}

import type { SkillManifest, ToolManifest } from '../skills';
import type { HandlerConvention } from './types';

export function conventionFor(skill: SkillManifest, tool: ToolManifest): HandlerConvention {
  switch (skill.format) {
    case 'malv':
      return 'malv';
    case 'rye':
      return 'rye';
    case 'code-skill':
    case 'skill-md':
      return 'agent-apps';
    case 'agent-skill': {
      // A folder skill runs agent-apps code through metadata.delegate, Skill Tools code through tools.json.
      // lib/skills names the delegating tool after the skill (tools.json may not reuse that name).
      const delegate = skill.metadata?.delegate;
      if (typeof delegate === 'string' && (tool.name === skill.name || normalizePath(tool.handler.ref) === normalizePath(delegate))) {
        return 'agent-apps';
      }
      if (tool.handler.kind === 'inline-code') return 'agent-apps';
      return 'skill-tools';
    }
    default:
      return 'agent-apps';
  }
}

function normalizePath(p: string | null): string | null {
  return p === null ? null : p.replace(/^\.\//, '');
}

/** A Rye result `{success: false, error}` is a failure; anything else is the tool's value. */
export function ryeFailure(value: unknown): string | null {
  if (value && typeof value === 'object' && !Array.isArray(value) && (value as { success?: unknown }).success === false) {
    const err = (value as { error?: unknown }).error;
    return typeof err === 'string' ? err : err === undefined ? 'the tool reported success: false' : JSON.stringify(err);
  }
  return null;
}
