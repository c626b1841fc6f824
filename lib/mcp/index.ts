// lib/mcp: Skillyard tools over the Model Context Protocol (see docs/mcp.md).
export { createMcpServer, MCP_SERVER_NAME, MCP_SERVER_VERSION, toolResult } from './create-mcp-server';
export { createMcpSessions, mcpSessionLimits, type McpSessions, type McpSessionLimits, type McpHttpRequest, type McpSessionStore } from './http-sessions';
export { readMcpBody, MCP_MAX_BODY_BYTES, MCP_MAX_DEPTH } from './read-mcp-body';
export { jsonRpcError, MCP_RETRY_LATER } from './json-rpc-errors';
export { nameTools } from './tool-names';
export { localToolHost } from './local-tool-host';
export { lockedToolNotes, lockedToolsText, type LockedToolNote } from './locked-tools';
export { serveMcpOverStdio } from './serve-stdio';
export type { McpToolHost, McpSkillInfo } from './tool-host';
export { addCommand, cliPackageArgs, mcpClientConfig, siteOrigin, type McpClientConfig } from './client-config';
