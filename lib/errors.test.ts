import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentError } from './agent/errors';
import { AppError, ERROR_CODES, errorBody, exitCodeFor, mapError, statusForCode } from './errors';
import { RuntimeError, httpStatusFor, toRuntimeError } from './runtime/errors';
import { SandboxFailure } from './sandbox/errors';

describe('the error table', () => {
  const doc = readFileSync(path.join(__dirname, '../docs/errors.md'), 'utf8');
  const documented = new Map([...doc.matchAll(/^\| `([^`]+)` \| (\d{3}) \| (.+) \|$/gm)].map((m) => [m[1]!, { status: Number(m[2]), meaning: m[3]! }]));

  it('docs/errors.md lists every code with its status, and no code the table lacks', () => {
    const table = Object.entries(ERROR_CODES).map(([code, e]) => [code, e.status] as const);
    expect(table.filter(([code, status]) => documented.get(code)?.status !== status)).toEqual([]);
    expect([...documented.keys()].filter((c) => !(c in ERROR_CODES))).toEqual([]);
    expect(documented.size).toBe(Object.keys(ERROR_CODES).length);
  });

  it('every code is `<area>/<what>` except the one catch-all, with a status and a meaning', () => {
    for (const [code, e] of Object.entries(ERROR_CODES)) {
      expect(code === 'internal' || /^[a-z]+\/[a-z0-9-]+$/.test(code), code).toBe(true);
      expect(e.status >= 400 && e.status <= 599, code).toBe(true);
      expect(e.meaning.length, code).toBeGreaterThan(10);
    }
  });

  it('every code thrown in lib/ and app/ is in the table', () => {
    const thrown = new Set<string>();
    const visit = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (e.name !== 'generated' && e.name !== 'node_modules' && e.name !== 'fixtures') visit(p);
        } else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
          const src = readFileSync(p, 'utf8');
          for (const m of src.matchAll(/new (?:AppError|RuntimeError|SandboxFailure|AgentError|RunError)\(\s*'([^']+)'/g)) thrown.add(m[1]!);
        }
      }
    };
    visit(path.join(__dirname));
    visit(path.join(__dirname, '../app'));
    expect(thrown.size).toBeGreaterThan(30);
    expect([...thrown].filter((c) => !(c in ERROR_CODES))).toEqual([]);
  });
});

describe('mapError: the one mapping', () => {
  it('gives the statuses the old regex guessed wrong', () => {
    expect(mapError(new AppError('skill/version-not-found', 'x@9 was not found.'))).toMatchObject({ status: 404, code: 'skill/version-not-found' });
    expect(mapError(new AppError('run/not-running', 'The run is queued.'))).toMatchObject({ status: 409, code: 'run/not-running' });
    expect(statusForCode('skill/version-not-found')).toBe(404);
  });

  it('maps AgentError and SandboxFailure by their codes, not to a bare 500', () => {
    expect(mapError(new AgentError('provider/network', 'cannot reach the model'))).toMatchObject({ status: 502, code: 'provider/network', expected: true });
    expect(mapError(new AgentError('agent/config', 'maxTurns must be >= 1'))).toMatchObject({ status: 400 });
    expect(mapError(new SandboxFailure('sandbox/queue-full', 'busy'))).toMatchObject({ status: 503, code: 'sandbox/queue-full', message: 'busy' });
    expect(mapError(new SandboxFailure('sandbox/timeout', 'too slow'))).toMatchObject({ status: 504 });
    expect(new SandboxFailure('sandbox/memory-limit', 'm')).toBeInstanceOf(AppError);
    expect(new AgentError('provider/http', 'm', { providerStatus: 418 }).providerStatus).toBe(418); // the provider's status stays
    expect(new AgentError('provider/http', 'm', { providerStatus: 418 }).status).toBe(502);
  });

  it('keeps codes of plain values that crossed a process boundary', () => {
    expect(mapError({ code: 'sandbox/worker-crashed', message: 'SIGKILL at /srv/x' })).toMatchObject({ status: 500, code: 'sandbox/worker-crashed', expected: false });
    expect(mapError({ code: 'tool/not-allowed', message: 'denied' })).toMatchObject({ status: 403, message: 'denied' });
  });

  it('answers anything else as internal, with the request id and without internals', () => {
    const err = new Error('relation "User" does not exist at /srv/app/lib/db.ts:12');
    const mapped = mapError(err);
    expect(mapped).toMatchObject({ status: 500, code: 'internal', expected: false });
    const body = errorBody(mapped, 'req-1234567890');
    expect(body.error).toMatchObject({ code: 'internal', requestId: 'req-1234567890' });
    expect(JSON.stringify(body)).not.toContain('relation');
    expect(body.error.message).toContain('req-1234567890');
    // a 500 code from the table hides its message as well
    expect(JSON.stringify(errorBody(mapError(new RuntimeError('internal', 'secret path /etc/x')), 'r-12345678'))).not.toContain('/etc/x');
  });

  it('maps Zod errors to input/invalid with the field', () => {
    const r = z.object({ n: z.number() }).safeParse({ n: 'x' });
    expect(mapError(r.error)).toMatchObject({ status: 400, code: 'input/invalid' });
    expect(mapError(r.error).message).toContain('at n');
  });

  it('has one catch-all and one tool/not-found for the runtime and the registry', () => {
    expect(toRuntimeError(new Error('boom')).code).toBe('internal');
    expect(httpStatusFor('tool/not-found')).toBe(statusForCode('tool/not-found'));
    expect(Object.keys(ERROR_CODES).filter((c) => /internal|catch/.test(c))).toEqual(['internal']);
  });

  it('gives the CLI an exit status per code', () => {
    expect(exitCodeFor('ref/invalid')).toBe(2);
    expect(exitCodeFor('tool/failed')).toBe(1);
    expect(exitCodeFor('params/invalid')).toBe(1);
    expect(exitCodeFor('input/invalid-json')).toBe(2);
  });
});
