import { describe, expect, it } from 'vitest';
import { parseTeamSlug } from '../teams/team-slug';
import { reservedScopeName, scopeSkeleton } from './scope-names';
import { usernameProblem } from './usernames';

describe('scope names', () => {
  it('reserves the site words for usernames and team slugs alike', () => {
    for (const word of ['official', 'npm', 'registry', 'system', 'anonymous', 'mcp', 'new', 'join', 'admin', 'api', 'skillyard', 'settings', 'teams']) {
      expect(usernameProblem(word), word).toMatch(/reserved/);
      expect(() => parseTeamSlug(word), word).toThrow(expect.objectContaining({ code: 'team/slug-taken' }));
    }
  });

  it('folds look-alike characters into one skeleton', () => {
    expect(scopeSkeleton('example')).toBe(scopeSkeleton('examp1e'));
    expect(scopeSkeleton('example')).toBe(scopeSkeleton('EXAMPLE'));
    expect(scopeSkeleton('foo')).toBe(scopeSkeleton('f00'));
    expect(scopeSkeleton('modern')).toBe(scopeSkeleton('rnodern'));
    expect(scopeSkeleton('my-team')).toBe(scopeSkeleton('my_team'));
    expect(scopeSkeleton('my-team')).toBe(scopeSkeleton('myteam'));
    expect(scopeSkeleton('wave')).toBe(scopeSkeleton('vvave'));
    expect(scopeSkeleton('line')).toBe(scopeSkeleton('l1ne'));
    expect(scopeSkeleton('example')).not.toBe(scopeSkeleton('examples'));
    expect(scopeSkeleton('ada')).not.toBe(scopeSkeleton('abba'));
  });

  it('refuses a look-alike of a reserved word, and names it', () => {
    expect(reservedScopeName('0fficial')).toBe('official');
    expect(reservedScopeName('adrnin')).toBe('admin');
    expect(reservedScopeName('sky-llard')).toBeNull();
    expect(reservedScopeName('ski11yard')).toBe('skillyard');
    expect(usernameProblem('regl-stry')).toMatch(/reads like the reserved "registry"/);
    expect(() => parseTeamSlug('n-p-m')).toThrow(expect.objectContaining({ code: 'team/slug-taken', message: expect.stringContaining('@npm') }));
    expect(usernameProblem('ada-lovelace')).toBeNull();
  });
});
