export { runAgent, BARE_TOOL_NAME, DEFAULT_MAX_STEPS, DEFAULT_MAX_TURNS } from './run-agent';
export { runProviderLoop, type AgentProviderArgs } from './provider-loop';
export { resolveVisibleTools, AGENT_SELF_TOOLS, DISCOVERY_TOOLS } from './discovery';
export { AgentError, type AgentErrorCode } from './errors';
export { parseScript } from './providers/scripted';
export * from './providers';
export * from './types';
export { decideRunOutcome, tallyTurns, OUTCOME_RULES, type RunOutcome as AgentRunOutcome, type OutcomeRule } from './run-outcome';
