import { describe, expect, it } from 'vitest';
import { routeLabel } from './route-label';

describe('routeLabel', () => {
  it('keeps fixed segments and replaces values', () => {
    expect(routeLabel('/api/v1/skills/@acme/word-count/versions/1.2.0')).toBe('/api/v1/skills/:p/:p/versions/:p');
    expect(routeLabel('/api/v1/runs/cm9x2k3j0000abc/events')).toBe('/api/v1/runs/:p/events');
    expect(routeLabel('/api/health')).toBe('/api/health');
    expect(routeLabel('/api/v1/tools/count-words/invoke')).toBe('/api/v1/tools/:p/invoke');
    expect(routeLabel('/api/v1/openapi.json')).toBe('/api/v1/openapi.json');
  });

  it('names the skill after a scope a value even when it looks like a route word', () => {
    expect(routeLabel('/api/mcp/@acme/search')).toBe('/api/mcp/:p/:p');
  });

  it('stops adding labels after its bound', () => {
    const labels = new Set<string>();
    for (let i = 0; i < 500; i++) labels.add(routeLabel(`/api/${'abcdefghijklmnopqrstuvwxyz'[i % 26]}${'abcdefghijklmnopqrstuvwxyz'[Math.floor(i / 26) % 26]}/x`));
    expect(labels.has('other')).toBe(true);
    expect(labels.size).toBeLessThanOrEqual(201);
  });
});
