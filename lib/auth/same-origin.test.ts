import { describe, expect, it } from 'vitest';
import { isSameOrigin } from './same-origin';

describe('server action origin check', () => {
  it('accepts our own origin only', () => {
    expect(isSameOrigin('http://localhost:3000', 'localhost:3000', null)).toBe(true);
    expect(isSameOrigin('https://yard.example', 'internal:3000', 'yard.example')).toBe(true);
    expect(isSameOrigin('https://evil.example', 'localhost:3000', null)).toBe(false);
    expect(isSameOrigin(null, 'localhost:3000', null)).toBe(false);
    expect(isSameOrigin('null', 'localhost:3000', null)).toBe(false);
  });
});
