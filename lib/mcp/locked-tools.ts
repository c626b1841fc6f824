// For the MCP server's instructions: which tools of a skill are listed only once the caller
// holds a token, and how to get it. MCP Inspector and Claude show a token-gated skill with
// no tools as a broken server; the instructions say instead what is locked and why.
import type { SkillManifest } from '../skills';

export type LockedToolNote = { tool: string; needs: string; unlock: string };

export function lockedToolNotes(manifest: Pick<SkillManifest, 'tools'>): LockedToolNote[] {
  const notes: LockedToolNote[] = [];
  for (const tool of manifest.tools) {
    if (tool.visibility === 'hidden') continue;
    for (const [issuer, spec] of Object.entries(tool.inputTokens ?? {})) {
      const claims = spec.required ?? [];
      const needs = `${issuer}${claims.length ? ` (${claims.join(', ')})` : ''}`;
      const issuers = manifest.tools.filter((t) => t !== tool && claims.every((c) => (t.outputTokens?.[issuer]?.required ?? []).includes(c))).map((t) => t.name);
      const unlock = issuer.startsWith('@oauth/')
        ? `connect ${issuer.slice('@oauth/'.length)} on the registry, then send your API token (Authorization: Bearer <token>)`
        : issuers.length
          ? `call ${issuers.join(' or ')} first`
          : 'nothing in this skill issues it';
      notes.push({ tool: tool.name, needs, unlock });
    }
  }
  return notes;
}

/** One paragraph for the server's instructions, or '' when nothing is locked. */
export function lockedToolsText(skills: Array<{ ref: string; locked: LockedToolNote[] }>): string {
  const lines = skills.flatMap((s) => s.locked.map((n) => `${n.tool} (${s.ref}) needs ${n.needs}: ${n.unlock}`));
  if (lines.length === 0) return '';
  return ` Some tools are listed only once you hold the token they need: ${lines.join('; ')}. tools/list changes when they unlock.`;
}
