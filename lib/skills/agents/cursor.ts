import type { AgentTable } from './types';

const DOC = 'https://cursor.com/docs/context/skills';
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Cursor documents name as required, lowercase with hyphens, matching the folder. */
export const CURSOR: AgentTable = {
  agent: 'cursor',
  label: 'Cursor',
  rules: [
    {
      id: 'cursor/skill-file',
      rule: 'a skill is a folder with a SKILL.md file',
      doc: `${DOC} (SKILL.md file format)`,
      effect: 'blocks',
      check: (f) => (f.format !== 'agent-skill' ? `a ${f.format} skill has no SKILL.md` : f.marker !== 'SKILL.md' ? `the file is named ${f.marker}, not SKILL.md` : null),
    },
    {
      id: 'cursor/frontmatter',
      rule: 'the file starts with YAML frontmatter',
      doc: `${DOC} (SKILL.md file format: YAML frontmatter)`,
      effect: 'blocks',
      check: (f) => (f.fence === 'none' ? 'there is no frontmatter' : f.fence !== 'ok' ? 'the frontmatter has no closing --- line' : !f.yamlOk ? 'the frontmatter is not valid YAML' : null),
    },
    {
      id: 'cursor/name',
      rule: 'name is required: lowercase letters, numbers and hyphens, matching the parent folder name',
      doc: `${DOC} (Frontmatter fields: name "Must match the parent folder name")`,
      effect: 'blocks',
      check: (f) =>
        f.fence !== 'ok' || !f.yamlOk ? null : typeof f.name !== 'string' || !f.name ? 'name is missing' : !NAME.test(f.name) ? `name "${f.name}" is not lowercase letters, numbers and hyphens` : f.dirName !== null && f.name !== f.dirName ? `name "${f.name}" does not match the folder "${f.dirName}"` : null,
    },
    {
      id: 'cursor/description',
      rule: 'description is required',
      doc: `${DOC} (Frontmatter fields: description, required)`,
      effect: 'blocks',
      check: (f) => (f.fence !== 'ok' || !f.yamlOk ? null : typeof f.description !== 'string' || !f.description.trim() ? 'description is missing' : null),
    },
  ],
};
