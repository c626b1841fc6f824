// Reading settings: lazily, on first use (tests and scripts set variables before they
// import or call us), each value parsed once and remembered until the variable changes.
import { ConfigError, type Env } from './define-setting';
import { SETTINGS, type SettingName, type SettingValue } from './settings';

const parsed = new Map<SettingName, { raw: string | undefined; value: unknown }>();

/**
 * The typed value of one setting, from `env` when given (a test's or a child's
 * environment), else from this process's environment. A bad value throws a ConfigError
 * naming the variable.
 */
export function setting<N extends SettingName>(name: N, env?: Env): SettingValue<N> {
  const spec = SETTINGS[name];
  if (env) return spec.parse(env[name], name) as SettingValue<N>;
  const raw = process.env[name];
  const hit = parsed.get(name);
  if (hit && hit.raw === raw) return hit.value as SettingValue<N>;
  const value = spec.parse(raw, name);
  parsed.set(name, { raw, value });
  return value as SettingValue<N>;
}

/** Every bad value in `env`, one message each (empty when all parse): what start refuses on. */
export function settingProblems(env: Env = process.env): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    try {
      SETTINGS[name].parse(env[name], name);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(err.message);
    }
  }
  return problems;
}

/** Forget what was parsed (tests that change a variable between calls need not: a changed value is re-read). */
export function resetSettings(): void {
  parsed.clear();
}
