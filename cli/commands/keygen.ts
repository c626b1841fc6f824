import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateSigningKey } from '../../lib/skills';
import type { Command } from '../command';
import { defaultKeysDir } from '../keys';

const usage = `Usage: skillyard keygen [--out <dir>]

Create an Ed25519 signing key pair:
  <dir>/<keyid>.key.pem   private key (mode 0600; keep it secret)
  <dir>/<keyid>.pub.pem   public key (share it; validate trusts keys in ~/.skillyard/keys)

Options:
  --out <dir>   where to write the keys (default: ~/.skillyard/keys)
`;

export const keygen: Command = {
  name: 'keygen',
  summary: 'create an Ed25519 key pair for signing Rye tools',
  usage,
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { out: { type: 'string' } } });
    const dir = values.out ?? defaultKeysDir();
    mkdirSync(dir, { recursive: true });
    const k = generateSigningKey();
    const priv = path.join(dir, `${k.keyId}.key.pem`);
    const pub = path.join(dir, `${k.keyId}.pub.pem`);
    if (existsSync(priv) || existsSync(pub)) throw new Error(`${priv} already exists`);
    writeFileSync(priv, k.privateKeyPem, { mode: 0o600 });
    writeFileSync(pub, k.publicKeyPem);
    process.stdout.write(`key id   ${k.keyId}\nprivate  ${priv}\npublic   ${pub}\n`);
    return 0;
  },
};
