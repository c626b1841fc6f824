// Public API of lib/skills: every skill format -> one canonical manifest (SPEC 2).
// Pure library: imports only npm packages and node: builtins.

export type { AgentVerdict, Diagnostic, HandlerKind, SkillFormat, SkillManifest, SkillSignature, ToolExample, ToolManifest } from './types';
export { AGENT_TABLES, agentVerdicts, type AgentRule, type AgentTable } from './agents';
export { DEFAULT_LIMITS, LIMIT_ENV, limitsFromEnv, resolveLimits, uploadBodyBytes, type ReadLimits } from './limits';
export { readSkillsFromFiles, normalizeTreePath, type ReadOptions, type ReadResult, type InputFile } from './read';
export { readSkillsFromPath } from './read-path';
export { addToGroup } from './group';
export { readPackageFolder, type PackageFolder } from './disk';
export { readArchive, archiveKind, type ArchiveResult } from './archive';
export { detectSkills, formatOfSingleFile, type DetectedSkill } from './detect';
export { skillRefOf, type SkillRef } from './skill-ref';
export { canonicalToolName, isAsciiSkillName, isValidSkillName, isValidToolName, normalizeTag, normalizeTags, isSemver, sameSkillName } from './names';
export { compileToolSchema, resolveJsonSchema, pathGet, schemaDraft, getAjv, SchemaCompileError } from './schema';
export {
  findSignature,
  verifySignedText,
  signText,
  hashSignedText,
  removeLine,
  keyIdOf,
  toPublicKey,
  buildKeyRing,
  generateSigningKey,
  commentStyleFor,
  type TrustedKey,
  type ParsedSignature,
} from './signature';
export { DIAGNOSTIC_CODES, type DiagnosticCode } from './diagnostic-codes';
export { exceedsDepth, jsonTextExceedsDepth } from './depth';
export { readToolExamples, MAX_TOOL_EXAMPLES } from './tool-examples';
export { allowedHostsOf } from './allowed-hosts';
export { splitAllowedTools } from './allowed-tools-entries';
