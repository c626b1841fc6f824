// A reference to a published skill, `@scope/name` or `@scope/name@1.2.3` (the leading @ is
// optional): parsed here, below every floor that names skills (lib/registry's
// parseSkillRef turns a malformed one into an error for the caller).

export type SkillRef = { scope: string; name: string; version?: string };

/** The parts of a skill reference, or null when `text` is not one. */
export function skillRefOf(text: string): SkillRef | null {
  const m = /^@?([a-z0-9][a-z0-9-]{0,63})\/([a-z0-9][a-z0-9-]{0,63})(?:@([0-9A-Za-z.+-]{1,64}))?$/.exec(text.trim());
  return m ? { scope: m[1], name: m[2], version: m[3] } : null;
}
