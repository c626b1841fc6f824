// A small structured logger: one JSON object per line ({time, level, msg, ...fields}),
// with the current request id and with secrets redacted. Errors and warnings go to
// stderr, the rest to stdout. SKILLYARD_LOG_LEVEL = debug | info | warn | error | silent.
import { redact } from './redact';
import { currentRequestId } from './request-context';
import { setting } from '../config';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;
export type LogSink = (level: LogLevel, line: string) => void;

export type Logger = {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** a logger whose lines all carry `fields` (for example `{ component: 'runs' }`) */
  child(fields: LogFields): Logger;
};

const RANK: Record<LogLevel | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

function thresholdFromEnv(): number {
  let name: string | undefined;
  try {
    name = setting('SKILLYARD_LOG_LEVEL');
  } catch {
    // a bad level is reported at start (settingProblems); the log itself keeps working
    name = 'info';
  }
  return RANK[(name ?? (setting('NODE_ENV') === 'test' ? 'warn' : 'info')) as LogLevel] ?? RANK.info;
}

const stdSink: LogSink = (level, line) => {
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
};

export function createLogger(base: LogFields = {}, opts: { sink?: LogSink; level?: LogLevel | 'silent' } = {}): Logger {
  const sink = opts.sink ?? stdSink;
  const write = (level: LogLevel, msg: string, fields?: LogFields) => {
    const threshold = opts.level ? RANK[opts.level] : thresholdFromEnv();
    if (RANK[level] < threshold) return;
    const requestId = currentRequestId();
    const record = {
      time: new Date().toISOString(),
      level,
      msg,
      ...(requestId ? { requestId } : {}),
      ...(redact({ ...base, ...fields }) as LogFields),
    };
    try {
      sink(level, JSON.stringify(record));
    } catch {
      // a log line must never take the caller down
    }
  };
  return {
    debug: (msg, fields) => write('debug', msg, fields),
    info: (msg, fields) => write('info', msg, fields),
    warn: (msg, fields) => write('warn', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
    child: (fields) => createLogger({ ...base, ...fields }, opts),
  };
}

/** The process's logger. */
export const log: Logger = createLogger();
