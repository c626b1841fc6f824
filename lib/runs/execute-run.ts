// Runs one claimed run to its end: loads its skills for its owner, builds the kernel and
// the provider, drives the agent, and records every trace event and the outcome.
import { createProvider, runAgent, type AgentTool, type AgentToolHost, type ProviderConfig } from '../agent';
import { createToolManager, type LoadedSkill } from '../runtime';
import { loadSkillVersion, parseSkillRef } from '../registry/load-skill-version';
import type { ServerContext } from '../server';
import type { RunConfig } from './run-config';
import { openRunEventLog, type RunEventLog } from './run-event-log';
import { runEventBus } from './run-event-bus';
import { modelConfig } from './server-providers';

export type ClaimedRun = { id: string; userId: string | null; config: RunConfig };

function agentToolHost(skills: LoadedSkill[], manager: ReturnType<typeof createToolManager>): AgentToolHost {
  return {
    async listTools() {
      const tools: AgentTool[] = [];
      for (const summary of manager.listVisibleTools()) {
        const manifest = skills.find((s) => s.manifest.name === summary.skill)?.manifest.tools.find((t) => t.name === summary.name);
        if (manifest) tools.push({ ...manifest, skill: summary.skill });
      }
      return tools;
    },
    invoke: (ref, args) => manager.invoke(ref, args),
  };
}

function providerConfig(run: ClaimedRun, log: RunEventLog, signal: AbortSignal): ProviderConfig {
  const { config } = run;
  if (config.provider === 'scripted') return { provider: 'scripted', turns: config.script ?? [] };
  if (config.provider === 'manual') {
    return {
      provider: 'manual',
      nextTurn: ({ turnNumber }) =>
        new Promise((resolve, reject) => {
          log.append('awaiting-input', { turnNumber, timestamp: Date.now() });
          const off = runEventBus().onControl(run.id, (control) => {
            if (control.kind !== 'manual-turn') return;
            off();
            resolve(control.turn);
          });
          signal.addEventListener('abort', () => {
            off();
            reject(new Error('cancelled'));
          });
        }),
    };
  }
  const server = modelConfig(config.provider);
  if (!server) throw new Error(`the ${config.provider} provider is not configured on this server`);
  return { provider: config.provider, model: config.model || server.model, apiKey: server.apiKey, baseUrl: server.baseUrl };
}

export async function executeRun(server: ServerContext, run: ClaimedRun, signal: AbortSignal): Promise<void> {
  const { db } = server;
  const log = await openRunEventLog(db, run.id);
  let status: 'succeeded' | 'failed' | 'cancelled' = 'failed';
  let result: unknown = null;
  let error: { code: string; message: string } | null = null;
  try {
    const viewer = run.userId ? { userId: run.userId } : null;
    const skills = await Promise.all(run.config.skills.map((ref) => loadSkillVersion(db, parseSkillRef(ref), viewer)));
    const manager = createToolManager({
      skills,
      ...(await server.runtimeFor(
        { userId: run.userId },
        { onObject: (component) => log.append('object', { component, timestamp: Date.now() }) },
      )),
      // the kernel checks the run's allowed-tools too, not only the agent's policy
      allowedTools: run.config.allowedTools || null,
    });
    const outcome = await runAgent({
      runId: run.id,
      task: run.config.task,
      provider: createProvider(providerConfig(run, log, signal)),
      tools: agentToolHost(skills, manager),
      sandbox: server.sandbox,
      allowedTools: run.config.allowedTools || null,
      maxTurns: run.config.maxTurns,
      maxSteps: run.config.maxSteps,
      signal,
      onEvent: ({ type, ...data }) => log.append(type, data),
    });
    status = outcome.status === 'completed' ? 'succeeded' : outcome.status;
    result = outcome.result ?? null;
    error = outcome.error;
  } catch (err) {
    error = { code: 'run/failed', message: err instanceof Error ? err.message : String(err) };
    log.append('agent-error', { error, timestamp: Date.now() });
  }
  log.append('run-end', { status, timestamp: Date.now() });
  await log.flush().catch((err) => console.error(`[runs] could not store events of ${run.id}:`, err));
  await db.run.update({
    where: { id: run.id },
    data: { status, result: result === undefined ? undefined : (result as object), error: error ?? undefined, finishedAt: new Date(), lockedBy: null },
  });
}
