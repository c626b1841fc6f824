// Where `skillyard login` keeps the API token: the CLI config file (cli/registry-client.ts
// reads it), written with mode 0600 in a folder of mode 0700. SKILLYARD_TOKEN overrides it.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { configPath } from './registry-client';

function readRaw(): Record<string, unknown> {
  try {
    const data = JSON.parse(readFileSync(configPath(), 'utf8'));
    return data && typeof data === 'object' && !Array.isArray(data) ? data : {};
  } catch {
    return {};
  }
}

/** Merges `changes` into the config (undefined deletes a key), atomically, readable by the user only. */
export function updateConfig(changes: Record<string, string | undefined>): string {
  const file = configPath();
  const dir = path.dirname(file);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const next = { ...readRaw() };
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete next[k];
    else next[k] = v;
  }
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return file;
}
