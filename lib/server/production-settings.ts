// Production mode (SKILLYARD_MODE=production): several instances behind a balancer on one
// Postgres. What a laptop may default (an embedded Postgres, a key made under .data/, the
// socket's address as the client) silently breaks there: each instance would start its
// own database, seal secrets no other instance can open, and see every visitor as the
// balancer. So production mode refuses to start without each decision made explicitly.
import 'server-only';

export const isProductionMode = (env: NodeJS.ProcessEnv = process.env) => env.SKILLYARD_MODE === 'production';

/** What is missing for production mode, one message per setting (empty outside production mode). */
export function assertProductionSettings(env: NodeJS.ProcessEnv, opts: { web: boolean }): string[] {
  if (!isProductionMode(env)) {
    if (env.SKILLYARD_MODE && env.SKILLYARD_MODE !== 'development') {
      return [`SKILLYARD_MODE=${env.SKILLYARD_MODE} is not a mode: use production, or leave it unset.`];
    }
    return [];
  }
  const problems: string[] = [];
  if (!env.DATABASE_URL) {
    problems.push('production mode needs DATABASE_URL: every instance must use the same Postgres (no embedded database is started).');
  }
  if (!env.SKILLYARD_SECRET_KEY) {
    problems.push(
      'production mode needs SKILLYARD_SECRET_KEY (32 bytes as 64 hex digits or base64, the same on every instance; e.g. `openssl rand -hex 32`): without it each machine makes its own key and cannot open what another sealed.',
    );
  }
  if (opts.web && (env.SKILLYARD_TRUSTED_PROXIES ?? '') === '') {
    problems.push(
      'production mode needs SKILLYARD_TRUSTED_PROXIES: the number of proxies (load balancers) in front of the app that append to X-Forwarded-For, or 0 when clients connect directly.',
    );
  }
  return problems;
}
