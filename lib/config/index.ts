// Configuration: every environment variable the server reads is declared once in
// settings.ts (parser + default) and read through `setting('NAME')`, never process.env.
// A new variable: add it to SETTINGS (int/optionalInt/text/flag/oneOf/list/custom) and,
// unless it is `internal`, a row in docs/configuration.md (documented-settings.test.ts checks).
// Read lazily (on first use, re-read when the value changes); `settingProblems()` runs at start.
export { ConfigError, type Env, type Setting, type SettingKind } from './define-setting';
export { resetSettings, setting, settingProblems } from './read-setting';
export { SETTINGS, type SettingName, type SettingValue } from './settings';
