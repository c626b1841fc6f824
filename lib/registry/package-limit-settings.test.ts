import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../config';
import { LIMIT_ENV } from '../skills';
import { packageLimitSettings } from './package-limit-settings';

describe('packageLimitSettings', () => {
  it('declares every package limit variable and reads the ones set', () => {
    for (const name of Object.values(LIMIT_ENV)) expect(SETTINGS).toHaveProperty(name);
    expect(packageLimitSettings({})).toEqual({});
    expect(packageLimitSettings({ SKILLYARD_MAX_FILE_BYTES: '2048', SKILLYARD_MAX_TOOLS: '3' })).toEqual({ maxFileBytes: 2048, maxTools: 3 });
    expect(() => packageLimitSettings({ SKILLYARD_MAX_TOOLS: 'many' })).toThrow(/SKILLYARD_MAX_TOOLS/);
  });
});
