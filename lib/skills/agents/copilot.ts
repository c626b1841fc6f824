import type { AgentTable } from './types';

const DOC = 'https://docs.github.com/en/copilot/concepts/agents/about-agent-skills';
const VSCODE = 'https://code.visualstudio.com/docs/copilot/customization/agent-skills';
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** GitHub Copilot (coding agent, CLI, VS Code) reads name and description from the frontmatter. */
export const COPILOT: AgentTable = {
  agent: 'copilot',
  label: 'GitHub Copilot',
  rules: [
    {
      id: 'copilot/skill-file',
      rule: 'a skill is a folder with a file named SKILL.md',
      doc: `${DOC} ("Skill files must be named SKILL.md")`,
      effect: 'blocks',
      check: (f) => (f.format !== 'agent-skill' ? `a ${f.format} skill has no SKILL.md` : f.marker !== 'SKILL.md' ? `the file is named ${f.marker}, not SKILL.md` : null),
    },
    {
      id: 'copilot/frontmatter',
      rule: 'the file starts with YAML frontmatter',
      doc: `${VSCODE} (SKILL.md file format: "a YAML frontmatter header")`,
      effect: 'blocks',
      check: (f) => (f.fence === 'none' ? 'there is no frontmatter' : f.fence !== 'ok' ? 'the frontmatter has no closing --- line' : !f.yamlOk ? 'the frontmatter is not valid YAML' : null),
    },
    {
      id: 'copilot/name',
      rule: 'name is required: lowercase, hyphens for spaces, at most 64 characters',
      doc: `${DOC} (name: "lowercase, using hyphens for spaces"); ${VSCODE} ("Maximum 64 characters")`,
      effect: 'blocks',
      check: (f) => (f.fence !== 'ok' || !f.yamlOk ? null : typeof f.name !== 'string' || !f.name ? 'name is missing' : f.name.length > 64 ? `name is ${f.name.length} characters (at most 64)` : !NAME.test(f.name) ? `name "${f.name}" is not lowercase with hyphens` : null),
    },
    {
      id: 'copilot/description',
      rule: 'description is required, at most 1,024 characters',
      doc: `${DOC} (description, required); ${VSCODE} ("Maximum 1024 characters")`,
      effect: 'blocks',
      check: (f) => (f.fence !== 'ok' || !f.yamlOk ? null : typeof f.description !== 'string' || !f.description.trim() ? 'description is missing' : [...f.description].length > 1024 ? `description is ${[...f.description].length} characters (at most 1,024)` : null),
    },
  ],
};
