// Trusted public keys for Rye signatures: ~/.skillyard/keys plus any --keys <dir>.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { toPublicKey, type TrustedKey } from '../lib/skills';

export function defaultKeysDir(): string {
  return path.join(process.env.SKILLYARD_HOME ?? path.join(os.homedir(), '.skillyard'), 'keys');
}

/** Every readable Ed25519 key (*.pem, *.pub) in the given folders; missing folders are skipped. */
export function loadTrustedKeys(dirs: string[]): { keys: TrustedKey[]; problems: string[] } {
  const keys: TrustedKey[] = [];
  const problems: string[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
    for (const f of readdirSync(dir).sort()) {
      if (!/\.(pem|pub)$/i.test(f)) continue;
      const file = path.join(dir, f);
      try {
        const text = readFileSync(file, 'utf8');
        keys.push(toPublicKey(text));
      } catch (e) {
        problems.push(`${file}: ${(e as Error).message}`);
      }
    }
  }
  return { keys, problems };
}
