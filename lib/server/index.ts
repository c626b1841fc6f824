// lib/server: the one place where the server is wired (server-context.ts) and what the
// app reaches the server through: the context, the kernel for a caller, health.
import 'server-only';

export { createServerContext, serverContext, type ServerContext, type ServerProviders } from './server-context';
export { readServerConfig, type ServerConfig, type StorageQuota } from './server-config';
export { resolveCaller, runtimeForCaller, type CallerIdentity, type CallerRuntime } from './runtime-for-caller';
export { checkServerHealth, healthStatusCode, type ServerHealth } from './check-server-health';
export { createModuleCache } from './module-cache';
export { registerServerMetrics } from './server-metrics';
export { createPgMcpSessionStore } from './mcp-session-store';
export { checkReadiness, type Readiness } from './check-readiness';
export { forgetCachedSkillHeads, invokeRegistryTool, type InvokeInput, type InvokeOutput } from './invoke-registry-tool';
export { MCP_MAX_SKILLS, openRegistryMcpHost, parseMcpSelection } from './registry-mcp-host';
