// Public surface of lib/sandbox: the pool, TypeScript transpilation and the contract.
export { createSandboxPool, type SandboxPool, type SandboxPoolOptions, type SandboxPoolStats } from './pool';
export { transpileTs } from './transpile';
export { SandboxFailure } from './errors';
export { DEFAULT_LIMITS } from './limits';
export { FairQueue } from './fair-queue';
export { bundledEntry, type BundledEntry, type BundledEntrySpec } from './bundled-entry';
export type * from './types';
