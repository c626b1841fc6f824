import { describe, expect, it } from 'vitest';
// Auth.js's own normaliser, from the installed @auth/core (not exported: read by path)
import { defaultNormalizer } from '../../node_modules/@auth/core/lib/actions/signin/send-token.js';
import { normalizeSignInEmail, signInEmailOrNull } from './normalize-email';

const SAMPLES = [
  'victim@x.test',
  'Victim@X.Test',
  '  victim@x.test  ',
  'victim@x.test,1',
  'victim@x.test,attacker@evil.test',
  'victim\uFF20x.test', // full-width @
  'vi\u0301ctim@x.test',
  'v\u00EDctim@x.test',
  '\uFF56ictim@x.test', // full-width v
  'victim@x.test@y.test',
  '"victim"@x.test',
  'victim@',
  '@x.test',
  'victim@,x.test',
  'victim',
  '',
];

const outcome = (f: (e: string) => string, e: string) => {
  try {
    return { ok: f(e) };
  } catch (err) {
    return { error: (err as Error).message };
  }
};

describe('normalizeSignInEmail', () => {
  it('gives the address Auth.js gives, and refuses what Auth.js refuses', () => {
    for (const e of SAMPLES) expect(outcome(normalizeSignInEmail, e), e).toEqual(outcome(defaultNormalizer as (e: string) => string, e));
  });

  it('maps the variants of one inbox to one address', () => {
    const one = new Set(['victim@x.test', 'VICTIM@x.test', 'victim@x.test,1', 'victim\uFF20x.test', ' victim@X.TEST,2'].map((e) => signInEmailOrNull(e)));
    expect([...one]).toEqual(['victim@x.test']);
    expect(signInEmailOrNull(['victim@x.test'])).toBeNull();
    expect(signInEmailOrNull('victim@,x')).toBeNull();
  });
});
