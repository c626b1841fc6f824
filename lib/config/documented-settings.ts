// The settings docs/configuration.md names, against the ones lib/config declares: what
// the operator reads and what the server reads must be the same list.
import { SETTINGS, type SettingName } from './settings';

const VARIABLE = /\b(?:SKILLYARD|DATABASE|AUTH|NEXTAUTH|OPENAI|ANTHROPIC|AWS)_[A-Z0-9_]*[A-Z0-9]\b|\bPORT\b/g;

export function documentedSettingsMismatch(doc: string): { undocumented: SettingName[]; unknown: string[] } {
  const named = new Set(doc.match(VARIABLE) ?? []);
  const declared = Object.keys(SETTINGS) as SettingName[];
  return {
    undocumented: declared.filter((n) => SETTINGS[n].kind === 'documented' && !named.has(n)),
    unknown: [...named].filter((n) => !(n in SETTINGS)),
  };
}
