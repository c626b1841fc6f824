// Production mode (SKILLYARD_MODE=production): several instances behind a balancer on one
// Postgres. What a laptop may default (an embedded Postgres, a key made under .data/, the
// socket's address as the client) silently breaks there: each instance would start its
// own database, seal secrets no other instance can open, and see every visitor as the
// balancer. So production mode refuses to start without each decision made explicitly.
import 'server-only';
import { setting, settingProblems, type Env } from '../config';

/** SKILLYARD_MODE=production (an unknown mode is not production; start refuses it). */
export function isProductionMode(env?: Env): boolean {
  try {
    return setting('SKILLYARD_MODE', env) === 'production';
  } catch {
    return false;
  }
}

/**
 * What start refuses on, one message per setting: every value that does not parse
 * (any mode), then what production mode needs made explicit.
 */
export function assertProductionSettings(env: Env, opts: { web: boolean }): string[] {
  const problems = settingProblems(env);
  if (problems.length || !isProductionMode(env)) return problems;
  if (!setting('DATABASE_URL', env)) {
    problems.push('production mode needs DATABASE_URL: every instance must use the same Postgres (no embedded database is started).');
  }
  if (!setting('SKILLYARD_SECRET_KEY', env)) {
    problems.push(
      'production mode needs SKILLYARD_SECRET_KEY (32 bytes as 64 hex digits or base64, the same on every instance; e.g. `openssl rand -hex 32`): without it each machine makes its own key and cannot open what another sealed.',
    );
  }
  if (opts.web && (env.SKILLYARD_TRUSTED_PROXIES ?? '') === '') {
    problems.push(
      'production mode needs SKILLYARD_TRUSTED_PROXIES: the number of proxies (load balancers) in front of the app that append to X-Forwarded-For, or 0 when clients connect directly.',
    );
  }
  if (setting('SKILLYARD_OIDC_ALLOW_PRIVATE', env)) {
    problems.push('production mode refuses SKILLYARD_OIDC_ALLOW_PRIVATE=1: trusted publishing would fetch keys from loopback addresses (a development setting).');
  }
  return problems;
}
