// The package limits an operator set (SKILLYARD_MAX_FILE_BYTES, ...): lib/skills names each
// limit's variable and holds the defaults; lib/config parses them; this reads the ones set.
import { setting, type Env, type SettingName } from '../config';
import { LIMIT_ENV, type ReadLimits } from '../skills';

export function packageLimitSettings(env?: Env): Partial<ReadLimits> {
  const out: Partial<ReadLimits> = {};
  for (const [limit, name] of Object.entries(LIMIT_ENV) as [keyof ReadLimits, SettingName][]) {
    const value = setting(name, env);
    if (typeof value === 'number') out[limit] = value;
  }
  return out;
}
