// POST /api/v1/tools/{name}/invoke: runs one registry tool for one caller through the
// whole pipeline (visibility, allowed-tools, token gate, params, handler, returns).
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { createToolManager } from '../runtime';
import type { ServerContext } from './server-context';
import { loadSkillVersion, parseSkillRef, type SkillHead, cachedHead, skillHead } from '../registry';
import { createSecretScrubber } from '../log';
import { learnRunSecrets } from '../runs';

/** `visitorId`: an anonymous visitor's stable (signed-cookie) id, which gives them storage and warm isolates. */
export type InvokeInput = {
  tool: string;
  skill?: string;
  args: unknown;
  userId: string | null;
  visitorId?: string | null;
  ip?: string | null;
  /** CallerIdentity.account */ account?: string | null;
};
export type InvokeOutput = { skill: string; version: string; tool: string; result: unknown; ms: number };

export { forgetCachedSkillHeads } from '../registry';

/** Which public skill's latest version has a tool of this name (the caller may name one), with its row. */
function findSkillForTool(db: Db, tool: string): Promise<{ ref: string; head: SkillHead }> {
  return cachedHead(`tool:${tool}`, () => readSkillForTool(db, tool)) as Promise<{ ref: string; head: SkillHead }>;
}

async function readSkillForTool(db: Db, tool: string): Promise<{ ref: string; head: SkillHead }> {
  const rows = await db.tool.findMany({
    where: { name: tool, version: { latestOf: { visibility: 'public' } } },
    select: { version: { select: { skill: { select: { id: true, visibility: true, latestVersionId: true, scopeName: true, name: true } } } } },
    take: 10,
  });
  if (rows.length === 0) throw new AppError('tool/not-found', `No public skill has a tool named "${tool}".`);
  if (rows.length > 1) {
    const names = rows.map((r) => `@${r.version.skill.scopeName}/${r.version.skill.name}`).join(', ');
    throw new AppError('tool/ambiguous', `Several skills have a tool named "${tool}" (${names}): name one with "skill".`);
  }
  const { scopeName, name, ...head } = rows[0].version.skill;
  return { ref: `@${scopeName}/${name}`, head };
}

export async function invokeRegistryTool(server: ServerContext, input: InvokeInput): Promise<InvokeOutput> {
  const { db } = server;
  // one query finds the skill by its tool when the caller names none; its latest version's manifest is cached
  const found = input.skill ? null : await findSkillForTool(db, input.tool);
  const skillRef = parseSkillRef(input.skill ?? found!.ref);
  const viewer = input.userId ? { userId: input.userId } : null;
  const head = found?.head ?? (skillRef.version ? undefined : (await skillHead(db, skillRef))?.head);
  const skill = await loadSkillVersion(db, skillRef, viewer, head);
  // a signed-in caller's held tokens are read only when a tool of the skill declares input tokens
  const heldTokens = skill.manifest.tools.some((t) => Object.keys(t.inputTokens ?? {}).length > 0);
  const runtime = await server.runtimeFor({ userId: input.userId, visitorId: input.visitorId, heldTokens, ip: input.ip, account: input.account });
  // the caller's tokens and the secrets a tool reads never go back in the answer (the
  // skill page's try form shows it in the browser): redacted as in runs (docs/auth.md)
  const scrubber = createSecretScrubber();
  const manager = createToolManager({ skills: [skill], ...learnRunSecrets(runtime, scrubber) });
  const started = performance.now();
  const result = await scrubber.scrubbed(manager.invoke(`${skill.manifest.name}/${input.tool}`, input.args));
  return { skill: skill.ref, version: skill.version, tool: input.tool, result, ms: Math.round(performance.now() - started) };
}
