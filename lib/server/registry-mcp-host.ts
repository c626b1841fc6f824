// The MCP tool host for registry skills: the chosen skills' versions are loaded once per
// MCP session (visibility checked for this caller); each list or call builds the kernel
// with the caller's current tokens, so a token minted or connected mid-session shows, and
// with only the skills the caller may still see, asked as the invoke API does (the skill's
// row at most 1 s old, a private skill's scope membership each time: canSeePrivate): removed from a team, a member's open session no longer lists or
// calls its private skills (answered as unknown tools and prompts).
import 'server-only';
import { noteSkillCalls, skillOfTool, loadSkillVersion, parseSkillRef, canSeePrivate, skillHead } from '../registry';
import { AppError } from '../errors';
import { principalKey, userPrincipal } from '../principal';
import { createToolManager } from '../runtime';
import { lockedToolNotes, type McpToolHost } from '../mcp';
import type { ServerContext } from './server-context';

export const MCP_MAX_SKILLS = 20;

/** `@a/b,@c/d@1.0.0` → skill refs; a stable key of the selection for session binding. */
export function parseMcpSelection(list: string[]): { refs: ReturnType<typeof parseSkillRef>[]; key: string } {
  const refs = list
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  if (refs.length === 0) {
    throw new AppError('input/invalid', 'Choose the skills to serve: /api/mcp?skills=@scope/name,@scope/other or /api/mcp/<scope>/<name>.');
  }
  if (refs.length > MCP_MAX_SKILLS) throw new AppError('input/invalid', `At most ${MCP_MAX_SKILLS} skills in one MCP endpoint.`);
  const parsed = refs.map(parseSkillRef);
  return { refs: parsed, key: parsed.map((r) => `@${r.scope}/${r.name}${r.version ? `@${r.version}` : ''}`).join(',') };
}

export async function openRegistryMcpHost(
  server: ServerContext,
  refs: ReturnType<typeof parseSkillRef>[],
  userId: string | null,
  ip?: string,
  account?: string | null,
): Promise<McpToolHost> {
  const viewer = userId ? { userId } : null;
  const skills: Awaited<ReturnType<typeof loadSkillVersion>>[] = [];
  for (const ref of refs) skills.push(await loadSkillVersion(server.db, ref, viewer));
  // An anonymous session keeps what it minted (and its memory storage) for its own life; nothing is stored for it.
  const anonymous = userId ? null : await server.runtimeFor({ userId: null, ip });
  // as the invoke API does: the user's held tokens are read (per list or call) only when a
  // served tool is token-gated; otherwise they cannot change what is listed or allowed
  const heldTokens = skills.some((s) => s.manifest.tools.some((t) => Object.keys(t.inputTokens ?? {}).length > 0));
  // the loaded skills this caller may see now: the skill still exists, and if private, its scope is still theirs or their team's
  // (the rows as the invoke API reads them: at most 1 s old, skill-heads.ts; membership of a private skill's scope on every call)
  const visibleNow = async () => {
    const seesScope = new Map<string, Promise<boolean>>();
    const sees = (scope: string) => {
      if (!seesScope.has(scope)) seesScope.set(scope, canSeePrivate(server.db, scope, viewer));
      return seesScope.get(scope)!;
    };
    const visible = await Promise.all(
      refs.map(async (ref) => {
        const row = (await skillHead(server.db, ref))?.head;
        return !!row && (row.visibility !== 'private' || (await sees(ref.scope)));
      }),
    );
    return skills.filter((_, i) => visible[i]);
  };
  const manager = async () => createToolManager({ skills: await visibleNow(), ...(anonymous ?? (await server.runtimeFor({ userId, heldTokens, account }))) });
  const info = (s: (typeof skills)[number]) => ({
    ref: s.ref,
    name: s.manifest.name,
    description: s.manifest.description,
    instructions: s.manifest.instructions,
    locked: lockedToolNotes(s.manifest),
  });
  return {
    skills: () => skills.map(info),
    visibleSkills: async () => (await visibleNow()).map(info),
    listVisibleTools: async () => (await manager()).listVisibleTools().filter((t) => t.role !== 'middleware'),
    invoke: async (ref, args) => {
      const m = await manager();
      // the skill page's usage counts MCP calls per caller (skill-usage.ts)
      const counted = skillOfTool(skills, ref);
      const note = (failed: number) =>
        counted?.identity && noteSkillCalls(server.db, { skillId: counted.identity, callerKey: principalKey(userPrincipal(userId), ip ?? null), source: 'mcp', calls: 1, failed });
      try {
        const result = await m.invoke(ref, args);
        note(0);
        return result;
      } catch (err) {
        note(1);
        throw err;
      } finally {
        if (anonymous) anonymous.caller = { ...anonymous.caller, tokens: m.heldTokens() };
      }
    },
  };
}
