import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { commentStyleFor, signText, verifySignedText } from '../../lib/skills';
import { UsageError, type Command } from '../command';
import { readLocalFile } from '../read-local-file';

const usage = `Usage: skillyard sign <file...> --key <private.pem> [--timestamp <ISO date>]

Add (or replace) a Rye signature comment in each file, in place:
  rye:signed:TIMESTAMP:HASH:SIGNATURE:KEYID
on line 1 (line 2 after a #! line), as a #, // or <!-- --> comment by file type.
HASH is the SHA-256 of the file without that line; SIGNATURE is Ed25519 over HASH.

Options:
  --key <file>         Ed25519 private key in PEM (see \`skillyard keygen\`)
  --timestamp <date>   signing time to record (default: now)
`;

export const sign: Command = {
  name: 'sign',
  summary: 'sign Rye tool files with an Ed25519 key',
  usage,
  async run(argv) {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { key: { type: 'string' }, timestamp: { type: 'string' } } });
    if (!values.key) throw new UsageError('--key <private.pem> is required');
    if (positionals.length === 0) throw new UsageError('give at least one file to sign');
    const ts = values.timestamp ? new Date(values.timestamp) : undefined;
    if (ts && Number.isNaN(ts.getTime())) throw new UsageError(`--timestamp ${values.timestamp} is not a date`);
    const pem = readLocalFile(values.key, 'signing key (--key)', '`skillyard keygen --out <dir>` writes <dir>/<keyid>.key.pem and prints its path');
    if (!pem.includes('PRIVATE KEY')) throw new UsageError(`${values.key} is not a PEM private key`);
    for (const file of positionals) {
      const text = readLocalFile(file, 'file to sign');
      const out = signText(text, pem, { style: commentStyleFor(file), timestamp: ts });
      const check = verifySignedText(out.text, [pem]);
      if (!check?.verified) throw new Error(`internal: the signature written to ${file} does not verify`);
      writeFileSync(file, out.text);
      process.stdout.write(`signed ${file} (key ${out.keyId}, sha256 ${out.hash.slice(0, 16)}…)\n`);
    }
    return 0;
  },
};
