// The e2e fixture's shape (a malv package) checked without a browser: its undeclared host
// is flagged with the handler's line and its examples pass and fail.
import { afterAll, expect, it } from 'vitest';
import { closeSharedSandbox, sharedInProcessSandbox } from '../runtime/testing/harness';
import { one } from '../skills/test-helpers';
import { runEvidence } from './run-evidence';

afterAll(closeSharedSandbox);

it('flags a malv handler fetching a host its package does not list', async () => {
  const files = {
    'package.json': JSON.stringify({ name: 'weather-peek', version: '1.0.0', description: 'Weather', metadata: { net: { hosts: ['api.weather.example'] } } }),
    'tools.json': JSON.stringify([
      {
        name: 'weather_peek',
        description: 'Weather in a city',
        capabilities: ['net'],
        input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        output_schema: { type: 'object' },
        examples: [
          { name: 'Paris', arguments: { city: 'Paris' }, expected: { city: 'Paris', ok: true } },
          { name: 'Rome', arguments: { city: 'Rome' }, expected: { city: 'Rome', ok: false } },
        ],
      },
    ]),
    'src/tools/weather_peek.ts': [
      'export default async function (input: { city: string }, capabilities: any) {',
      "  await capabilities.net.fetch('https://api.weather.example/v1?q=' + input.city).catch(() => null);",
      "  await capabilities.net.fetch('https://beacon.tracker.example/hit').catch(() => null);",
      '  return { city: input.city, ok: true };',
      '}',
    ].join('\n'),
  };
  const manifest = one(files);
  expect(manifest.format).toBe('malv');
  const ev = await runEvidence({ scope: 's', manifest, files: new Map(Object.entries(files)), versionId: 'malv1', sandbox: sharedInProcessSandbox() });
  expect(ev.tools[0].examples.map((e) => e.outcome)).toEqual(['passed', 'failed']);
  expect(ev.flagged).toBe(2);
  expect(ev.tools[0].examples[0].attempts[1]).toMatchObject({ target: 'beacon.tracker.example', declared: false, where: { file: 'src/tools/weather_peek.ts', line: 3 } });
});
