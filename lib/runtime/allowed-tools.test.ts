import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_GLOB_LENGTH, MAX_MATCH_VALUE_LENGTH, checkAllowedTools, globMatch, globMatchSteps, mayListTool, parseAllowedTools } from './allowed-tools';

const allowed = (spec: string | string[], name: string, args: unknown = {}) => checkAllowedTools(parseAllowedTools(spec), [name], args).allowed;

describe('parseAllowedTools', () => {
  it('splits on whitespace outside parentheses and reads specifiers', () => {
    expect(parseAllowedTools('file-read  agent(allowedTools=file-read, name=x*) rm($deny)')?.entries).toEqual([
      { pattern: 'file-read', conditions: [], deny: false, source: 'file-read' },
      {
        pattern: 'agent',
        conditions: [
          { key: 'allowedTools', value: 'file-read' },
          { key: 'name', value: 'x*' },
        ],
        deny: false,
        source: 'agent(allowedTools=file-read, name=x*)',
      },
      { pattern: 'rm', conditions: [], deny: true, source: 'rm($deny)' },
    ]);
  });
  it('joins YAML arrays; null means no restriction', () => {
    expect(parseAllowedTools(['a', 'b(x=1)'])?.entries.map((e) => e.pattern)).toEqual(['a', 'b']);
    expect(parseAllowedTools(null)).toBeNull();
    expect(checkAllowedTools(null, ['anything'], {})).toEqual({ allowed: true });
  });
});

describe('checkAllowedTools', () => {
  it('globs on tool names (* and ?)', () => {
    expect(allowed('file-*', 'file-read')).toBe(true);
    expect(allowed('file-*', 'web-fetch')).toBe(false);
    expect(allowed('file-rea?', 'file-read')).toBe(true);
    expect(allowed('*', 'x')).toBe(true);
  });
  it('key=value specifiers constrain args with globs; a missing arg does not match', () => {
    expect(allowed('schedule-create(ref=my-*)', 'schedule-create', { ref: 'my-job' })).toBe(true);
    expect(allowed('schedule-create(ref=my-*)', 'schedule-create', { ref: 'their-job' })).toBe(false);
    expect(allowed('schedule-create(ref=my-*)', 'schedule-create', {})).toBe(false);
    expect(allowed('t(n=3)', 't', { n: 3 })).toBe(true);
    expect(allowed('t(opts.mode=fast)', 't', { opts: { mode: 'fast' } })).toBe(true);
  });
  it('one of several entries for a name may match', () => {
    const spec = 'agent(allowedTools=file-read) agent(allowedTools=web-*)';
    expect(allowed(spec, 'agent', { allowedTools: 'web-fetch' })).toBe(true);
    expect(allowed(spec, 'agent', { allowedTools: '*' })).toBe(false);
  });
  it('$deny refuses (alone or with conditions) and wins over allows', () => {
    expect(allowed('* rm($deny)', 'rm')).toBe(false);
    expect(allowed('* rm($deny)', 'ls')).toBe(true);
    expect(allowed('rm($deny)', 'ls')).toBe(true);
    expect(allowed('file-*(path=/etc/*,$deny)', 'file-write', { path: '/etc/passwd' })).toBe(false);
    expect(allowed('file-*(path=/etc/*,$deny)', 'file-write', { path: '/tmp/x' })).toBe(true);
    expect(checkAllowedTools(parseAllowedTools('* rm($deny)'), ['rm'], {})).toEqual({ allowed: false, reason: "denied by 'rm($deny)'" });
  });
  it('matches a target by any of its names (bare or skill/tool)', () => {
    expect(checkAllowedTools(parseAllowedTools('notes/*'), ['create-note', 'notes/create-note'], {}).allowed).toBe(true);
  });
  it('regex metacharacters in patterns are literal', () => {
    expect(allowed('a.b', 'axb')).toBe(false);
    expect(allowed('a.b', 'a.b')).toBe(true);
  });
});

describe('mayListTool', () => {
  it('ignores argument conditions but honours unconditional denies', () => {
    expect(mayListTool(parseAllowedTools('t(x=1)'), ['t'])).toBe(true);
    expect(mayListTool(parseAllowedTools('* t($deny)'), ['t'])).toBe(false);
    expect(mayListTool(parseAllowedTools('u'), ['t'])).toBe(false);
  });
});

describe('globMatch without backtracking (issue 8 item 2)', () => {
  it('answers the ReDoS glob of the attack review in a number of steps linear in the value', () => {
    const value = 'a'.repeat(60_000);
    const { match, steps } = globMatchSteps('*a*a*a*a*a*a*b', value);
    expect(match).toBe(false);
    // a backtracking matcher needs ~value^6 steps here; this one a few per character
    expect(steps).toBeLessThan(4 * value.length);
    expect(allowed('tool(text=*a*a*a*a*a*a*b)', 'tool', { text: value })).toBe(false);
    expect(allowed('* tool(text=*a*a*a*a*a*a*b,$deny)', 'tool', { text: value })).toBe(true);
  });

  it('never takes more than value x glob steps, for ? pieces too', () => {
    const value = 'ab'.repeat(5_000) + 'c';
    const glob = '*' + '?b'.repeat(20) + 'x*';
    const { match, steps } = globMatchSteps(glob, value);
    expect(match).toBe(false);
    expect(steps).toBeLessThanOrEqual(value.length * glob.length);
  });

  it('agrees with a regular-expression glob on small inputs', () => {
    const reference = (glob: string, value: string) =>
      new RegExp(
        `^${glob
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '.*')
          .replace(/\?/g, '.')}$`,
        's',
      ).test(value);
    fc.assert(
      fc.property(fc.stringMatching(/^[ab*?.]{0,8}$/), fc.stringMatching(/^[ab.\n]{0,10}$/), (glob, value) => {
        expect(globMatch(glob, value)).toBe(reference(glob, value));
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses past the size limits: an allow never matches, a deny always does', () => {
    const long = 'x'.repeat(MAX_MATCH_VALUE_LENGTH + 1);
    expect(allowed('t(s=*)', 't', { s: long })).toBe(false);
    expect(allowed('* t(s=y*,$deny)', 't', { s: long })).toBe(false);
    expect(allowed('* t(s=y*,$deny)', 't', { s: 'x' })).toBe(true);
    const longGlob = 'a'.repeat(MAX_GLOB_LENGTH + 1);
    expect(allowed(longGlob, longGlob)).toBe(false);
    expect(allowed(`* ${longGlob}($deny)`, 'anything')).toBe(false);
  });
});
