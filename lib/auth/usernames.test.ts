import { describe, expect, it } from 'vitest';
import { suggestUsername, usernameProblem } from './usernames';

describe('usernames', () => {
  it('accepts scope-shaped names and refuses the rest', () => {
    expect(usernameProblem('ada')).toBeNull();
    expect(usernameProblem('ada-l0velace')).toBeNull();
    for (const bad of ['a', '-ada', 'ada-', 'a--b', 'Ada', 'ada_l', 'x'.repeat(40), 'ada.l']) expect(usernameProblem(bad)).not.toBeNull();
    expect(usernameProblem('skillyard')).toMatch(/reserved/);
    expect(usernameProblem('oauth')).toMatch(/reserved/);
  });

  it('suggests one from a name or an e-mail address', () => {
    expect(suggestUsername('ada.lovelace@example.com')).toBe('ada-lovelace');
    expect(suggestUsername('Grace Hopper')).toBe('grace-hopper');
    expect(suggestUsername(null)).toBe('');
    expect(suggestUsername('admin@x.example')).toBe('');
  });
});
