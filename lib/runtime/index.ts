// lib/runtime: the kernel (SPEC section 3). See docs/runtime.md.

export { createToolManager, DEFAULT_MAX_CALLS, DEFAULT_MAX_DEPTH } from './manager';
export { RuntimeError, httpStatusFor, toRuntimeError, RUNTIME_ERROR_CODES, type RuntimeErrorCode } from './errors';
export { parseAllowedTools, checkAllowedTools, mayListTool, globMatch, type AllowedToolsSpec } from './allowed-tools';
export { checkTokenGate, assertMayMint } from './tokens';
export { lockedToolMessage } from './locked-tool-message';
export { runOnion, createContext, type Layer } from './pipeline';
export { runScriptHandler, runProcess } from './subprocess';
export { conventionFor } from './conventions';
export { createToolIndex, type ToolIndex } from './tool-index';
export { planFor } from './planner';
export { mcpServerFor } from './mcp-handler';
export { parseDelegate } from './delegates';
export { createMemoryStorage } from './capabilities/memory-storage';
export { createMemoryVault } from './capabilities/memory-vault';
export { createHmacTokenSigner } from './capabilities/hmac-token-signer';
export { skillKey } from './skill-key';
export { heldTokensChanged, onHeldTokensChanged, type HeldTokensListener } from './held-tokens-changed';
export { netFetch, allowedHostsOf } from './capabilities/net';
export { allowRangesFromEnv, blockedReason } from './capabilities/net-address';
export { createMemoryEnvironment } from './capabilities/memory-environment';
export { createMemoryEventBus } from './capabilities/memory-events';
export type * from './capabilities/types';
export type * from './types';
export { BUNDLED_SCOPE } from './bundled-scope';
