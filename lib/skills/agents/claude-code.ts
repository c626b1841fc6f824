import type { AgentTable } from './types';

const DOC = 'https://code.claude.com/docs/en/skills';

/** Claude Code: every field is optional; the folder name and the body stand in for name and description. */
export const CLAUDE_CODE: AgentTable = {
  agent: 'claude-code',
  label: 'Claude Code',
  rules: [
    {
      id: 'claude-code/skill-file',
      rule: 'a skill is a folder with SKILL.md as its entrypoint',
      doc: `${DOC} (Create your first skill: "Every skill needs a SKILL.md file")`,
      effect: 'blocks',
      check: (f) => (f.format !== 'agent-skill' ? `a ${f.format} skill has no SKILL.md` : f.marker !== 'SKILL.md' ? `the file is named ${f.marker}, not SKILL.md (not found on case-sensitive file systems)` : null),
    },
    {
      id: 'claude-code/frontmatter-yaml',
      rule: 'the frontmatter between --- markers is YAML',
      doc: `${DOC} (Frontmatter reference: "YAML frontmatter between --- markers")`,
      effect: 'blocks',
      check: (f) => (f.fence === 'unterminated' ? 'the frontmatter has no closing --- line' : f.fence === 'indented' ? 'the closing --- is indented, so the frontmatter never ends' : f.fence === 'ok' && !f.yamlOk ? 'the frontmatter is not valid YAML' : null),
    },
    {
      id: 'claude-code/description',
      rule: 'description is recommended; without it the first paragraph of the body is used',
      doc: `${DOC} (Frontmatter reference: description "If omitted, uses the first paragraph of markdown content")`,
      effect: 'caveat',
      check: (f) => (typeof f.description === 'string' && f.description.trim() ? null : f.hasBodyText ? null : 'no description and no body text: Claude has nothing to choose the skill by'),
    },
  ],
};
