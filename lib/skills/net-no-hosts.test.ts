import { describe, expect, it } from 'vitest';
import { readSkillsFromFiles } from './read';

const enc = new TextEncoder();
const tools = JSON.stringify([{ name: 'fetch_it', description: 'Fetches.', capabilities: ['net'], input_schema: { type: 'object' } }]);
const files = (pkg: Record<string, unknown>) =>
  [
    { path: 'app/package.json', content: enc.encode(JSON.stringify({ name: 'app', description: 'An app.', ...pkg })) },
    { path: 'app/tools.json', content: enc.encode(tools) },
    { path: 'app/src/tools/fetch_it.ts', content: enc.encode('export default async function fetch_it() { return 1; }') },
  ];
const codes = (pkg: Record<string, unknown>) => readSkillsFromFiles(files(pkg)).skills[0].diagnostics.map((d) => d.code);

describe('tool/net-no-hosts', () => {
  it('warns when a tool declares net and the skill lists no hosts, and not once it lists one', () => {
    expect(codes({})).toContain('tool/net-no-hosts');
    expect(codes({ metadata: { net: { hosts: [] } } })).toContain('tool/net-no-hosts');
    expect(codes({ metadata: { net: { hosts: ['api.example.com'] } } })).not.toContain('tool/net-no-hosts');
  });
});
