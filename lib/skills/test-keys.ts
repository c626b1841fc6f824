import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** PEM public keys of a folder (tests only; the CLI has its own loader). */
export function loadKeysForTest(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.pem'))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'));
}
