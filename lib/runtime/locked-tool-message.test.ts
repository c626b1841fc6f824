import { describe, expect, it } from 'vitest';
import { lockedToolMessage } from './locked-tool-message';

describe('lockedToolMessage', () => {
  it('is null for a usable tool', () => {
    expect(lockedToolMessage({ ref: 'a/t', usable: true, missing: [], unlocks: [] })).toBeNull();
  });

  it('names the OAuth issuer, its scopes and the connection that unlocks it', () => {
    const msg = lockedToolMessage({
      ref: '@skillyard/github-repos/list-repos',
      usable: false,
      missing: [{ issuer: '@oauth/github', claim: 'repo', reason: 'missing' }],
      unlocks: [
        { issuer: '@oauth/github', claims: ['repo'], options: [{ kind: 'oauth', provider: 'github', issuer: '@oauth/github', claims: ['repo'], label: 'log in with GitHub' }] },
      ],
    });
    expect(msg).toBe('tool "list-repos" is locked: it needs @oauth/github (repo); to unlock it: connect GitHub (the skill\'s page or Settings → Connections)');
  });

  it('names the minting tool, says when it is itself locked, and says when a token expired', () => {
    const msg = lockedToolMessage({
      ref: 'notebook/write-page',
      usable: false,
      missing: [{ issuer: '@skillyard/notebook', claim: 'open', reason: 'expired' }],
      unlocks: [
        {
          issuer: '@skillyard/notebook',
          claims: ['open'],
          options: [
            {
              kind: 'tool',
              ref: 'notebook/open-notebook',
              issuer: '@skillyard/notebook',
              claims: ['open'],
              usable: false,
              label: 'run open-notebook (it issues @skillyard/notebook open)',
            },
          ],
        },
      ],
    });
    expect(msg).toContain('@skillyard/notebook (open), which has expired');
    expect(msg).toContain('run open-notebook (it issues @skillyard/notebook open) — itself locked');
  });

  it('says so when nothing issues the token', () => {
    const msg = lockedToolMessage({
      ref: 'x/t',
      usable: false,
      missing: [{ issuer: '@acme/x', claim: 'a', reason: 'missing' }],
      unlocks: [{ issuer: '@acme/x', claims: ['a'], options: [] }],
    });
    expect(msg).toContain('nothing on this server issues it');
  });
});
