// What may name a dist-tag: not something that reads as a version or a range, so
// `add @s/n@next` and `add @s/n@^1` can never be confused.
import 'server-only';
import semver from 'semver';

export function isValidDistTag(tag: string): boolean {
  return /^[a-z][a-z0-9._-]{0,31}$/i.test(tag) && semver.validRange(tag) === null;
}
