// Every environment variable the server reads, with its parser and default: the one
// place a setting is named. docs/configuration.md lists the documented ones (a test holds
// the two together); the meaning of each is there, not here.
import { ConfigError, custom, flag, int, intBetween, list, oneOf, optionalInt, text } from './define-setting';

const MiB = 1024 * 1024;

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

export const SETTINGS = {
  // the instance
  SKILLYARD_MODE: custom((raw) => {
    if (raw === undefined || raw === '' || raw === 'development') return 'development' as const;
    if (raw === 'production') return 'production' as const;
    throw new ConfigError('SKILLYARD_MODE', `SKILLYARD_MODE=${raw} is not a mode: use production, or leave it unset.`);
  }),
  PORT: text('3000'),
  DATABASE_URL: text(),
  DATABASE_DIRECT_URL: text(),
  SKILLYARD_PG_PORT: int(54329, 1),
  SKILLYARD_DATA_DIR: text(),
  SKILLYARD_ROOT: text(),
  SKILLYARD_SEED: flag(true),
  SKILLYARD_SECRET_KEY: custom((raw) => {
    if (!raw) return undefined;
    const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
    if (key.length !== 32) throw new ConfigError('SKILLYARD_SECRET_KEY', 'SKILLYARD_SECRET_KEY must be 32 bytes (64 hex digits or base64)');
    return key;
  }),
  SKILLYARD_WORKER: flag(true),
  SKILLYARD_DRAIN_SECONDS: custom((raw, name) => {
    if (raw === undefined || raw.trim() === '') return 25;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new ConfigError(name, `must be a number of seconds, at least 0 (got "${raw}")`);
    return n;
  }),
  SKILLYARD_LOG_LEVEL: custom((raw, name) => {
    if (raw === undefined) return undefined;
    const level = raw.trim().toLowerCase();
    if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new ConfigError(name, `must be ${LOG_LEVELS.join(', ')} (got "${raw}")`);
    return level as (typeof LOG_LEVELS)[number];
  }),
  SKILLYARD_METRICS_TOKEN: custom((raw, name) => {
    const token = raw?.trim() || null;
    if (token !== null && token.length < 16) throw new ConfigError(name, 'SKILLYARD_METRICS_TOKEN must be at least 16 characters (a guessable token would expose the metrics)');
    return token;
  }),

  // HTTP limits (lib/api/limits.ts)
  SKILLYARD_MAX_BODY_BYTES: int(1 * MiB, 1),
  SKILLYARD_MAX_JSON_DEPTH: int(64, 1),
  SKILLYARD_RATE_WINDOW_SECONDS: int(60, 1),
  SKILLYARD_RATE_LIMIT_ANONYMOUS: int(600, 1),
  SKILLYARD_RATE_LIMIT_AUTHENTICATED: int(1200, 1),
  SKILLYARD_TRUSTED_PROXIES: int(0, 0),
  SKILLYARD_MAX_CONCURRENT_PER_CALLER: int(16, 1),
  SKILLYARD_MAX_STREAMS_PER_CALLER: int(8, 1),
  SKILLYARD_RATE_LIMIT_PAGES: int(1200, 1),
  SKILLYARD_RATE_LIMIT_SUGGEST: int(240, 1),
  SKILLYARD_MAX_CONCURRENT_PAGES_PER_CALLER: int(16, 1),
  SKILLYARD_MAX_FORM_PARTS: int(256, 1),
  SKILLYARD_REFUSAL_DELAY_MS: int(1000, 0),
  SKILLYARD_PAGE_RENDERS_IN_PROGRESS: int(4, 0),
  SKILLYARD_PAGE_RENDERS_WAITING: int(256, 0),
  SKILLYARD_PAGE_RENDER_LOOP_PERCENT: int(60, 1),
  SKILLYARD_PAGE_RENDER_SHARE_PERCENT: int(50, 1),

  // package limits (lib/skills/limits.ts holds the defaults; unset keeps them)
  SKILLYARD_MAX_DESCRIPTION_CHARS: optionalInt(1),
  SKILLYARD_MAX_INSTRUCTIONS_BYTES: optionalInt(1),
  SKILLYARD_MAX_FILE_BYTES: optionalInt(1),
  SKILLYARD_MAX_PACKAGE_BYTES: optionalInt(1),
  SKILLYARD_MAX_PACKAGE_FILES: optionalInt(1),
  SKILLYARD_MAX_TOOLS: optionalInt(1),
  SKILLYARD_MAX_YAML_ALIAS_COUNT: optionalInt(1),
  SKILLYARD_MAX_DEPTH: optionalInt(1),
  SKILLYARD_MAX_INLINE_DEPTH: optionalInt(1),
  SKILLYARD_MAX_ARCHIVE_BYTES: optionalInt(1),
  SKILLYARD_MAX_ARCHIVE_FILES: optionalInt(1),
  SKILLYARD_MAX_TREE_FILES: optionalInt(1),
  SKILLYARD_MAX_TREE_DEPTH: optionalInt(1),

  // uploads (lib/registry/upload-reader.ts): unset sizes from the machine
  SKILLYARD_UPLOAD_WORKERS: optionalInt(1),
  SKILLYARD_UPLOAD_QUEUE: optionalInt(0),

  // runs (lib/runs/run-limits.ts)
  SKILLYARD_RUN_CONCURRENCY: int(16, 1),
  SKILLYARD_RUN_MAX_ACTIVE: int(8, 1),
  SKILLYARD_RUN_MAX_ACTIVE_ANONYMOUS: int(32, 0),
  SKILLYARD_RUN_INPUT_TIMEOUT_SECONDS: int(600, 1),
  SKILLYARD_RUN_TRACE_MAX_BYTES: int(8 * MiB, 0),
  SKILLYARD_RUN_HEARTBEAT_SECONDS: int(10, 1),
  SKILLYARD_RUN_STALE_SECONDS: int(45, 2),
  SKILLYARD_RUN_MAX_ATTEMPTS: int(3, 1),
  SKILLYARD_RUN_EVENT_PAGE_BYTES: int(2 * MiB, 1),
  SKILLYARD_RUN_TRACE_RETENTION_DAYS: int(90, 0),
  SKILLYARD_RUN_RETENTION_DAYS: int(365, 0),

  // sandbox (lib/sandbox/sizing.ts): unset sizes from the machine
  SKILLYARD_SANDBOX_WORKERS: optionalInt(0),
  SKILLYARD_SANDBOX_CONCURRENCY: optionalInt(0),
  SKILLYARD_SANDBOX_QUEUE: optionalInt(0),
  SKILLYARD_SANDBOX_QUEUE_PER_CALLER: optionalInt(0),
  SKILLYARD_SANDBOX_MAX_QUEUE_WAIT_MS: optionalInt(0),
  SKILLYARD_SANDBOX_MAX_IDLE: int(32, 0),
  SKILLYARD_SANDBOX_COLD_STARTS_PER_SECOND: int(10, 0),
  SKILLYARD_SANDBOX_SPARES: int(1, 0),
  SKILLYARD_SANDBOX_SPIN_US: text(),
  SKILLYARD_SANDBOX_GC: text(),
  /** set by the pool for its workers */
  SKILLYARD_SANDBOX_WORKER: text(undefined, 'internal'),

  // server wiring (lib/server/server-config.ts)
  SKILLYARD_ALLOW_SUBPROCESS: flag(false),
  SKILLYARD_NET_ALLOW: list(),
  SKILLYARD_STORAGE_MAX_ROWS: int(10_000, 0),
  SKILLYARD_STORAGE_MAX_BYTES: int(64 * MiB, 0),
  SKILLYARD_STORAGE_MAX_ROWS_PER_SKILL: int(2_000, 0),
  SKILLYARD_STORAGE_MAX_BYTES_PER_SKILL: int(16 * MiB, 0),
  SKILLYARD_STORAGE_ANON_MAX_ROWS: int(200, 0),
  SKILLYARD_STORAGE_ANON_MAX_BYTES: int(1 * MiB, 0),
  SKILLYARD_STORAGE_ANON_TOTAL_MAX_ROWS: int(20_000, 0),
  SKILLYARD_STORAGE_ANON_TOTAL_MAX_BYTES: int(64 * MiB, 0),

  // package bytes (lib/registry/package-store)
  SKILLYARD_PACKAGE_STORE: oneOf(['postgres', 's3'], 'postgres'),
  SKILLYARD_PACKAGE_CACHE_BYTES: int(32 * MiB, 0),
  SKILLYARD_S3_BUCKET: text(),
  SKILLYARD_S3_ENDPOINT: text(),
  SKILLYARD_S3_REGION: text(),
  SKILLYARD_S3_PREFIX: text('packages/'),
  AWS_REGION: text(),

  // MCP sessions (lib/mcp/http-sessions.ts)
  SKILLYARD_MCP_MAX_SESSIONS: int(1000, 1),
  SKILLYARD_MCP_MAX_SESSIONS_PER_PRINCIPAL: int(20, 1),
  SKILLYARD_MCP_MAX_ANONYMOUS_SESSIONS: optionalInt(0),
  SKILLYARD_MCP_SESSION_IDLE_MS: int(30 * 60_000, 1),
  SKILLYARD_CLI_PACKAGE: text(),

  // publish-time evidence (lib/evidence) and trusted publishing (lib/trusted-publishing)
  SKILLYARD_EVIDENCE: flag(true),
  SKILLYARD_EVIDENCE_WALL_MS: intBetween(5000, 1, 60_000),
  SKILLYARD_EVIDENCE_MEMORY_MB: intBetween(64, 1, 512),
  SKILLYARD_EVIDENCE_CONCURRENCY: int(1, 1),
  SKILLYARD_OIDC_AUDIENCE: custom((raw) => raw?.trim() || 'skillyard'),
  SKILLYARD_OIDC_TOKEN_MINUTES: intBetween(15, 1, 60),
  SKILLYARD_OIDC_GITHUB_ISSUERS: list(),
  SKILLYARD_OIDC_ALLOW_PRIVATE: flag(false),

  // teams
  SKILLYARD_MAX_TEAMS_PER_ACCOUNT: int(10, 0),
  SKILLYARD_INVITE_TTL_HOURS: int(7 * 24, 1),

  // model providers (lib/runs/server-providers.ts, lib/auth/model-access.ts)
  OPENAI_API_KEY: text(),
  OPENAI_BASE_URL: text(),
  OPENAI_MODEL: text('gpt-4o-mini'),
  ANTHROPIC_API_KEY: text(),
  ANTHROPIC_BASE_URL: text(),
  ANTHROPIC_MODEL: text('claude-sonnet-4-5'),
  SKILLYARD_ANONYMOUS_MODEL_RUNS_PER_DAY: int(0, 0),

  // sign-in (lib/auth/provider-config.ts, email-sign-in.ts)
  AUTH_URL: text(),
  NEXTAUTH_URL: text(),
  AUTH_SECRET: text(),
  SKILLYARD_SMTP_URL: text(),
  SKILLYARD_SMTP_FROM: text('Skillyard <no-reply@localhost>'),
  SKILLYARD_GITHUB_ID: text(),
  SKILLYARD_GITHUB_SECRET: text(),
  AUTH_GITHUB_ID: text(),
  AUTH_GITHUB_SECRET: text(),
  SKILLYARD_GITHUB_SCOPES: text('read:user user:email'),
  SKILLYARD_GOOGLE_ID: text(),
  SKILLYARD_GOOGLE_SECRET: text(),
  AUTH_GOOGLE_ID: text(),
  AUTH_GOOGLE_SECRET: text(),
  SKILLYARD_GOOGLE_SCOPES: text('openid email profile'),
  SKILLYARD_GITLAB_ID: text(),
  SKILLYARD_GITLAB_SECRET: text(),
  AUTH_GITLAB_ID: text(),
  AUTH_GITLAB_SECRET: text(),
  SKILLYARD_GITLAB_URL: text('https://gitlab.com'),
  SKILLYARD_GITLAB_SCOPES: text('read_user'),
  SKILLYARD_OIDC_ISSUER: text(),
  SKILLYARD_OIDC_ID: text(),
  SKILLYARD_OIDC_SECRET: text(),
  AUTH_OIDC_ID: text(),
  AUTH_OIDC_SECRET: text(),
  SKILLYARD_OIDC_NAME: text('OpenID Connect'),
  SKILLYARD_OIDC_PROVIDER_ID: text('oidc'),
  SKILLYARD_OIDC_SCOPES: text('openid profile email offline_access'),
  SKILLYARD_OIDC_TOKEN_AUTH: text(),
  SKILLYARD_OAUTH_PROVIDERS: text(),

  // the CLI (cli/)
  SKILLYARD_TOKEN: text(),
  SKILLYARD_HOME: text(),

  // set by Node, Next.js or our own scripts and test harness
  NODE_ENV: text(undefined, 'internal'),
  NEXT_MANUAL_SIG_HANDLE: text(undefined, 'internal'),
  SKILLYARD_TEST_PG_PORT: int(54330, 1, 'internal'),
  SKILLYARD_SCRATCH_PG_PORT: int(54332, 1, 'internal'),
  SKILLYARD_TEST_S3_PORT: int(54350, 1, 'internal'),
} as const;

export type SettingName = keyof typeof SETTINGS;
export type SettingValue<N extends SettingName> = ReturnType<(typeof SETTINGS)[N]['parse']>;
