import { singleLineLength, type AgentTable } from './types';

const DOC = 'https://developers.openai.com/codex/skills';
const LOADER = 'openai/codex codex-rs/core/src/skills/loader.rs';

/** Codex refuses a skill (and says so at start) for any broken rule below. */
export const CODEX: AgentTable = {
  agent: 'codex',
  label: 'Codex',
  rules: [
    {
      id: 'codex/skill-file',
      rule: 'a skill is a folder with a file named exactly SKILL.md',
      doc: `${DOC} ("A skill is a directory with a SKILL.md file"); ${LOADER} (SKILLS_FILENAME)`,
      effect: 'blocks',
      check: (f) => (f.format !== 'agent-skill' ? `a ${f.format} skill has no SKILL.md` : f.marker !== 'SKILL.md' ? `the file is named ${f.marker}; Codex looks for SKILL.md only` : null),
    },
    {
      id: 'codex/frontmatter',
      rule: 'the file starts with a --- line and the frontmatter ends at a --- line (lines are trimmed)',
      doc: `${LOADER} (extract_frontmatter: "missing YAML frontmatter delimited by ---")`,
      effect: 'blocks',
      check: (f) => (f.fence === 'none' ? 'there is no frontmatter' : f.fence === 'unterminated' ? 'the frontmatter has no closing --- line' : null),
    },
    {
      id: 'codex/yaml',
      rule: 'the frontmatter is valid YAML with name and description as strings',
      doc: `${DOC} ("The SKILL.md file must include name and description"); ${LOADER} (SkillFrontmatter)`,
      effect: 'blocks',
      check: (f) => (f.fence === 'none' || f.fence === 'unterminated' ? null : !f.yamlOk ? 'the frontmatter is not valid YAML' : typeof f.name !== 'string' ? (f.name === undefined ? 'name is missing' : 'name is not a string') : typeof f.description !== 'string' ? (f.description === undefined ? 'description is missing' : 'description is not a string') : null),
    },
    {
      id: 'codex/name-length',
      rule: 'name is not empty and at most 64 characters',
      doc: `${LOADER} (MAX_NAME_LEN = 64)`,
      effect: 'blocks',
      check: (f) => (typeof f.name !== 'string' ? null : singleLineLength(f.name) === 0 ? 'name is empty' : singleLineLength(f.name) > 64 ? `name is ${singleLineLength(f.name)} characters; Codex skips over 64` : null),
    },
    {
      id: 'codex/description-length',
      rule: 'description is not empty and at most 1,024 characters',
      doc: `${LOADER} (MAX_DESCRIPTION_LEN = 1024)`,
      effect: 'blocks',
      check: (f) => (typeof f.description !== 'string' ? null : singleLineLength(f.description) === 0 ? 'description is empty' : singleLineLength(f.description) > 1024 ? `description is ${singleLineLength(f.description)} characters; Codex skips over 1,024` : null),
    },
    {
      id: 'codex/short-description-length',
      rule: 'metadata.short-description, when set, is at most 500 characters',
      doc: `${LOADER} (MAX_SHORT_DESCRIPTION_LEN = 500)`,
      effect: 'blocks',
      check: (f) => (typeof f.shortDescription === 'string' && singleLineLength(f.shortDescription) > 500 ? `metadata.short-description is ${singleLineLength(f.shortDescription)} characters; Codex skips over 500` : null),
    },
    {
      id: 'codex/no-symlink-or-hidden',
      rule: 'skill folders reached through a symbolic link, and hidden folders (.name), are not walked',
      doc: `${LOADER} (discover_skills_under_root skips names starting with '.' and symlinks)`,
      effect: 'blocks',
      check: (f) => (f.viaSymlink ? 'the skill folder is a symbolic link' : f.dirName?.startsWith('.') ? `the folder ${f.dirName} is hidden` : null),
    },
  ],
};
