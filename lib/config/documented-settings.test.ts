import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentedSettingsMismatch } from './documented-settings';

const doc = readFileSync(path.join(import.meta.dirname, '../../docs/configuration.md'), 'utf8');

describe('docs/configuration.md', () => {
  it('names every setting lib/config declares, and no other', () => {
    expect(documentedSettingsMismatch(doc)).toEqual({ undocumented: [], unknown: [] });
  });

  it('the check sees a missing row and a variable nothing reads', () => {
    const planted = doc.replace(/`SKILLYARD_RUN_MAX_ACTIVE`/g, '`SKILLYARD_RUN_MAX_ACTIVITY`');
    expect(documentedSettingsMismatch(planted)).toEqual({ undocumented: ['SKILLYARD_RUN_MAX_ACTIVE'], unknown: ['SKILLYARD_RUN_MAX_ACTIVITY'] });
  });
});
