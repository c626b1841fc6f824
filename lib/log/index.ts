// lib/log: the structured logger every server module uses (JSON lines, request ids,
// secrets redacted) and the failure registry that /api/health reads. Imports nothing
// of ours, so any library may use it.
export { createLogger, log, type LogFields, type LogLevel, type LogSink, type Logger } from './logger';
export { currentRequestId, newRequestId, withRequestId } from './request-context';
export { clearFailures, recentFailures, reportFailure, reportRecovery, type ComponentFailure } from './failures';
export { redact, redactText, serializeError, REDACTED } from './redact';
export { createSecretScrubber, MIN_SECRET_LENGTH, type SecretScrubber } from './secret-scrubber';
