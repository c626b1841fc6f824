import { describe, expect, it } from 'vitest';
import { RuntimeError } from './errors';
import { hostCallFailure } from './host-call-failure';

describe('hostCallFailure', () => {
  const where = { method: 'storage.set', skill: '@a/b', tool: 't' };

  it('passes a coded error through as it is', () => {
    expect(hostCallFailure(new RuntimeError('capability/not-declared', 'storage is not declared'), where)).toEqual({
      code: 'capability/not-declared',
      message: 'storage is not declared',
    });
  });

  it('hides an uncoded error behind an error id and keeps its text out of the answer', () => {
    const out = hostCallFailure(new Error('relation "StorageEntry" does not exist at /srv/app/lib/db.ts'), where);
    expect(out.code).toBe('internal');
    expect(out.message).toMatch(/^the server failed while answering storage\.set \(error id [0-9a-f]{12}; /);
    expect(out.message).not.toContain('StorageEntry');
    expect(out.message).not.toContain('/srv/app');
  });

  it('treats a raw internal-coded error as a server fault too', () => {
    expect(hostCallFailure(new RuntimeError('internal', 'pg: connection terminated'), where).message).not.toContain('pg:');
  });
});
