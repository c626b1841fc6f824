import { CLAUDE_CODE } from './claude-code';
import { CODEX } from './codex';
import { COPILOT } from './copilot';
import { CURSOR } from './cursor';
import { OPENCLAW } from './openclaw';
import type { AgentTable, AgentVerdict, LoaderFacts } from './types';

/** One table per agent, in the order they are shown. */
export const AGENT_TABLES: readonly AgentTable[] = [CLAUDE_CODE, CODEX, OPENCLAW, CURSOR, COPILOT];

/** Facts for a skill that is not an Agent Skills folder (no agent loads a malv app, a Rye tree, a .skill.md...). */
export function factsForFormat(format: string): LoaderFacts {
  return { format, marker: null, dirName: null, viaSymlink: false, fence: 'none', yamlOk: false, name: undefined, description: undefined, shortDescription: undefined, multilineKeys: [], metadataMultiline: false, hasBodyText: false };
}

/** Whether each agent loads the skill, and why not (every rule of its table is checked). */
export function agentVerdicts(f: LoaderFacts): AgentVerdict[] {
  return AGENT_TABLES.map((t) => {
    const reasons: AgentVerdict['reasons'] = [];
    for (const r of t.rules) {
      const message = r.check(f);
      if (message) reasons.push({ rule: r.id, effect: r.effect, message, doc: r.doc });
      // once the file is not there, nothing else about it matters
      if (message && r.id.endsWith('/skill-file')) break;
    }
    return { agent: t.agent, label: t.label, loads: !reasons.some((x) => x.effect === 'blocks'), reasons };
  });
}
