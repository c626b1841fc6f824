// The one name that keys everything per skill (storage rows, token signing keys, warm
// isolates, event subscriptions): the full `@scope/name` of a registry skill, so that
// `@mallory/notebook` never shares anything with `@skillyard/notebook`. A local skill
// without a scope (the CLI) is keyed by its bare name.

import type { LoadedSkill } from './types';

export function skillKey(skill: LoadedSkill): string {
  return skill.scope ? `@${skill.scope}/${skill.manifest.name}` : skill.manifest.name;
}
