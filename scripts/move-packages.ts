// `npm run packages:move -- --to s3|postgres`: moves every published version's bytes into
// the named store (the S3 settings come from the environment, as for the server), checking
// each copy against the integrity the database holds. Prints JSON; exit 1 if any failed.
import { createDb } from '../lib/db/client.ts';
import { createPackageStore, createPgPackageStore, movePackages, packageStoreConfigFromEnv } from '../lib/registry/package-store/index.ts';

const HELP = `Usage: npm run packages:move -- --to s3|postgres

Moves the bytes of every published version into the named store and removes them from
the other. S3 needs SKILLYARD_S3_BUCKET (and SKILLYARD_S3_ENDPOINT, SKILLYARD_S3_REGION,
SKILLYARD_S3_PREFIX, AWS credentials as the server uses them). Safe to run again; the
server keeps serving meanwhile (reads fall back to Postgres). Needs DATABASE_URL.`;

const args = process.argv.slice(2);
const to = args[args.indexOf('--to') + 1];
if (args.includes('--help') || args.includes('-h') || !args.includes('--to') || (to !== 's3' && to !== 'postgres')) {
  console.log(HELP);
  process.exit(args.includes('--help') || args.includes('-h') ? 0 : 2);
}
if (!process.env.DATABASE_URL) {
  console.error('DATABASE_URL is not set: point it at the registry database.');
  process.exit(2);
}
const db = createDb(process.env.DATABASE_URL);
const s3 = createPackageStore(db, packageStoreConfigFromEnv({ ...process.env, SKILLYARD_PACKAGE_STORE: 's3' }));
const pg = createPgPackageStore(db);
const [from, into] = to === 's3' ? [pg, s3] : [s3, pg];
const result = await movePackages(db, from, into, { log: (line) => process.stderr.write(line + '\n') });
console.log(JSON.stringify({ from: from.kind, to: into.kind, ...result }));
await db.$disconnect();
process.exit(result.failed.length ? 1 : 0);
