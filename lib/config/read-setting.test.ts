import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, resetSettings, setting, settingProblems, SETTINGS } from '.';

afterEach(() => {
  delete process.env.SKILLYARD_RUN_MAX_ACTIVE;
  resetSettings();
});

describe('setting', () => {
  it('gives the default when a variable is unset or empty', () => {
    expect(setting('SKILLYARD_RUN_MAX_ACTIVE', {})).toBe(8);
    expect(setting('SKILLYARD_RUN_MAX_ACTIVE', { SKILLYARD_RUN_MAX_ACTIVE: ' ' })).toBe(8);
    expect(setting('SKILLYARD_WORKER', {})).toBe(true);
    expect(setting('SKILLYARD_ALLOW_SUBPROCESS', {})).toBe(false);
    expect(setting('SKILLYARD_SMTP_FROM', {})).toBe('Skillyard <no-reply@localhost>');
    expect(setting('SKILLYARD_UPLOAD_WORKERS', {})).toBeUndefined();
    expect(setting('SKILLYARD_PACKAGE_STORE', {})).toBe('postgres');
    expect(setting('SKILLYARD_NET_ALLOW', { SKILLYARD_NET_ALLOW: '10.0.0.0/8, fd00::/8' })).toEqual(['10.0.0.0/8', 'fd00::/8']);
    expect(setting('SKILLYARD_OIDC_TOKEN_MINUTES', {})).toBe(15);
    expect(setting('SKILLYARD_OIDC_TOKEN_MINUTES', { SKILLYARD_OIDC_TOKEN_MINUTES: '60' })).toBe(60);
    expect(setting('SKILLYARD_OIDC_AUDIENCE', { SKILLYARD_OIDC_AUDIENCE: ' ' })).toBe('skillyard');
    expect(setting('SKILLYARD_EVIDENCE_WALL_MS', {})).toBe(5000);
  });

  it('refuses a bad value with an error that names the variable', () => {
    const bad: Array<[keyof typeof SETTINGS, string]> = [
      ['SKILLYARD_RUN_MAX_ACTIVE', 'eight'],
      ['SKILLYARD_RUN_MAX_ACTIVE', '0'],
      ['SKILLYARD_RATE_LIMIT_PAGES', '1.5'],
      ['SKILLYARD_WORKER', 'yes'],
      ['SKILLYARD_PACKAGE_STORE', 'disk'],
      ['SKILLYARD_MODE', 'staging'],
      ['SKILLYARD_LOG_LEVEL', 'loud'],
      ['SKILLYARD_SECRET_KEY', 'abcd'],
      ['SKILLYARD_METRICS_TOKEN', 'short'],
      ['SKILLYARD_DRAIN_SECONDS', '-1'],
      ['SKILLYARD_OIDC_TOKEN_MINUTES', '90'],
      ['SKILLYARD_EVIDENCE_WALL_MS', '0'],
      ['SKILLYARD_OIDC_ALLOW_PRIVATE', 'yes'],
    ];
    for (const [name, raw] of bad) {
      let error: unknown;
      try {
        setting(name, { [name]: raw });
      } catch (err) {
        error = err;
      }
      expect(error, `${name}=${raw}`).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe(name);
      expect((error as Error).message).toContain(name);
    }
  });

  it('reads this process environment on first use and again when a value changes', () => {
    process.env.SKILLYARD_RUN_MAX_ACTIVE = '3';
    expect(setting('SKILLYARD_RUN_MAX_ACTIVE')).toBe(3);
    process.env.SKILLYARD_RUN_MAX_ACTIVE = '5';
    expect(setting('SKILLYARD_RUN_MAX_ACTIVE')).toBe(5);
    delete process.env.SKILLYARD_RUN_MAX_ACTIVE;
    expect(setting('SKILLYARD_RUN_MAX_ACTIVE')).toBe(8);
  });

  it('lists every bad value at once (what start refuses on)', () => {
    expect(settingProblems({})).toEqual([]);
    const problems = settingProblems({ SKILLYARD_RUN_MAX_ACTIVE: 'x', SKILLYARD_SEED: 'no', SKILLYARD_PG_PORT: '5432' });
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).toMatch(/SKILLYARD_RUN_MAX_ACTIVE[\s\S]*SKILLYARD_SEED|SKILLYARD_SEED[\s\S]*SKILLYARD_RUN_MAX_ACTIVE/);
  });
});
