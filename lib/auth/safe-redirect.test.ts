import { describe, expect, it } from 'vitest';
import { safeLocalPath, safeRedirect, sameHostPath } from './safe-redirect';

const baseUrl = 'https://yard.example';

describe('sign-in redirects', () => {
  it('keeps local paths', () => {
    expect(safeLocalPath('/playground?skill=%40a%2Fb')).toBe('/playground?skill=%40a%2Fb');
    expect(safeRedirect({ url: '/settings', baseUrl })).toBe('https://yard.example/settings');
    expect(safeRedirect({ url: 'https://yard.example/runs', baseUrl })).toBe('https://yard.example/runs');
  });

  it('refuses other origins and protocol-relative tricks', () => {
    for (const bad of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '/\u0000x', 'evil', '']) {
      expect(safeLocalPath(bad)).toBe('/');
    }
    expect(safeRedirect({ url: 'https://evil.example/x', baseUrl })).toBe(baseUrl);
    expect(safeRedirect({ url: '//evil.example/x', baseUrl })).toBe(baseUrl);
    expect(safeRedirect({ url: 'https://yard.example.evil.example/', baseUrl })).toBe(baseUrl);
    expect(safeLocalPath(42)).toBe('/');
  });

  it('keeps an absolute callbackUrl only on our own host', () => {
    expect(sameHostPath('http://localhost:3000/playground?x=1', 'localhost:3000')).toBe('/playground?x=1');
    expect(sameHostPath('https://evil.example/playground', 'localhost:3000')).toBe('/');
    expect(sameHostPath('javascript://localhost:3000/%0aalert(1)', 'localhost:3000')).toBe('/');
  });
});
