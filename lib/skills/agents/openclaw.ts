import type { AgentTable } from './types';

const DOC = 'https://docs.openclaw.ai/tools/skills';
const FORMAT = 'https://docs.openclaw.ai/clawhub/skill-format';

/** OpenClaw loads AgentSkills-compatible folders; its embedded parser reads one line per key. */
export const OPENCLAW: AgentTable = {
  agent: 'openclaw',
  label: 'OpenClaw',
  rules: [
    {
      id: 'openclaw/skill-file',
      rule: 'a skill is a folder with SKILL.md (or skill.md)',
      doc: `${FORMAT} ("Required: SKILL.md (or skill.md)")`,
      effect: 'blocks',
      check: (f) => (f.format !== 'agent-skill' ? `a ${f.format} skill has no SKILL.md` : f.marker !== 'SKILL.md' && f.marker !== 'skill.md' ? `the file is named ${f.marker}; OpenClaw reads SKILL.md or skill.md` : null),
    },
    {
      id: 'openclaw/name-description',
      rule: 'the YAML frontmatter has name and description',
      doc: `${DOC} ("Each skill is a directory containing a SKILL.md with YAML frontmatter"; name and description)`,
      effect: 'blocks',
      check: (f) => (f.fence === 'none' ? 'there is no frontmatter' : f.fence === 'unterminated' ? 'the frontmatter has no closing --- line' : !f.yamlOk ? 'the frontmatter is not valid YAML' : typeof f.name !== 'string' || !f.name.trim() ? 'name is missing' : typeof f.description !== 'string' || !f.description.trim() ? 'description is missing' : null),
    },
    {
      id: 'openclaw/single-line-keys',
      rule: 'frontmatter keys are single-line (the embedded parser reads one line per key)',
      doc: `${DOC} ("The parser used by the embedded agent supports single-line frontmatter keys only")`,
      effect: 'caveat',
      check: (f) => {
        const keys = f.multilineKeys.filter((k) => k !== 'metadata');
        return keys.length ? `${keys.join(', ')} span${keys.length === 1 ? 's' : ''} several lines and may be read as empty` : null;
      },
    },
    {
      id: 'openclaw/metadata-json',
      rule: 'metadata is a single-line JSON object',
      doc: `${DOC} ("metadata should be a single-line JSON object")`,
      effect: 'caveat',
      check: (f) => (f.metadataMultiline ? 'metadata spans several lines: its gating (metadata.openclaw) is not read' : null),
    },
  ],
};
