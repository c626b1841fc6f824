// `npm run trust:keys -- list | rotate | revoke <kid> <reason>`: the registry's statement
// signing keys (docs/trust.md). Prints JSON. Needs DATABASE_URL, and the same
// SKILLYARD_SECRET_KEY (or .data/secret-key) as the server, which seals the private keys.
import { createDb } from '../lib/db/client.ts';
import { activeSigningKey, publicKeySet, revokeSigningKey, rotateSigningKey } from '../lib/registry/signing-keys.ts';

const HELP = `Usage: npm run trust:keys -- <command>

  list                   the public key set (as /.well-known/skillyard-keys.json serves it)
  rotate                 retire the active key (it still verifies what it signed) and make a new one
  revoke <kid> <reason>  revoke a key: statements it signed fail verification; versions get a
                         new statement from the active key on their next request
Needs DATABASE_URL.`;

const [command, ...rest] = process.argv.slice(2);
if (!command || command === '--help' || command === '-h') {
  console.log(HELP);
  process.exit(command ? 0 : 2);
}
if (!process.env.DATABASE_URL) {
  console.error('DATABASE_URL is not set: point it at the registry database (npm start prints it as "database ready").');
  process.exit(2);
}
const db = createDb(process.env.DATABASE_URL);
try {
  if (command === 'list') {
    await activeSigningKey(db);
    console.log(JSON.stringify(await publicKeySet(db), null, 2));
  } else if (command === 'rotate') {
    console.log(JSON.stringify(await rotateSigningKey(db)));
  } else if (command === 'revoke') {
    const [kid, ...reason] = rest;
    if (!kid || !reason.length) {
      console.error('revoke needs a key id and a reason: npm run trust:keys -- revoke sy-20261128-abcd1234 "key exposed"');
      process.exit(2);
    }
    await revokeSigningKey(db, kid, reason.join(' '));
    console.log(JSON.stringify({ revoked: kid }));
  } else {
    console.error(`unknown command "${command}"\n\n${HELP}`);
    process.exit(2);
  }
} finally {
  await db.$disconnect();
}
