import { describe, expect, it } from 'vitest';
import { lockedToolNotes, lockedToolsText } from './locked-tools';

const tool = (name: string, over: Record<string, unknown> = {}) => ({ name, visibility: 'public', inputTokens: {}, outputTokens: {}, ...over }) as never;

describe('lockedToolNotes', () => {
  it('names each gated tool, what it needs and how to unlock it', () => {
    const manifest = {
      tools: [
        tool('open-notebook', { outputTokens: { '@acme/notebook': { required: ['notebook'] } } }),
        tool('add-note', { inputTokens: { '@acme/notebook': { required: ['notebook'], allowExpired: [] } } }),
        tool('list-repos', { inputTokens: { '@oauth/github': { required: ['account'], allowExpired: [] } } }),
        tool('orphan', { inputTokens: { '@acme/other': { required: ['x'], allowExpired: [] } } }),
        tool('secret', { visibility: 'hidden', inputTokens: { '@acme/notebook': { required: ['notebook'], allowExpired: [] } } }),
      ],
    };
    expect(lockedToolNotes(manifest)).toEqual([
      { tool: 'add-note', needs: '@acme/notebook (notebook)', unlock: 'call open-notebook first' },
      { tool: 'list-repos', needs: '@oauth/github (account)', unlock: 'connect github on the registry, then send your API token (Authorization: Bearer <token>)' },
      { tool: 'orphan', needs: '@acme/other (x)', unlock: 'nothing in this skill issues it' },
    ]);
    expect(lockedToolsText([{ ref: '@acme/notes', locked: lockedToolNotes(manifest).slice(0, 1) }])).toBe(
      ' Some tools are listed only once you hold the token they need: add-note (@acme/notes) needs @acme/notebook (notebook): call open-notebook first. tools/list changes when they unlock.',
    );
    expect(lockedToolsText([{ ref: '@a/b', locked: [] }])).toBe('');
  });
});
