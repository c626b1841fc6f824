export { agentVerdicts, factsForFormat, AGENT_TABLES } from './verdicts';
export { skillFileFacts } from './facts';
export type { AgentId, AgentRule, AgentTable, AgentVerdict, LoaderFacts } from './types';
