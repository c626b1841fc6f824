// `npm run runs:retention [-- --dry-run]`: applies the run log's retention now (web
// processes also apply it about once an hour) and prints what it removed, as JSON.
import { createDb } from '../lib/db/client.ts';
import { applyRunRetention } from '../lib/runs/apply-run-retention.ts';
import { readServerConfig } from '../lib/server/server-config.ts';

const HELP = `Usage: npm run runs:retention [-- --dry-run]

Removes the events of runs that finished more than SKILLYARD_RUN_TRACE_RETENTION_DAYS
ago (default 90; the run's summary stays) and whole runs that finished more than
SKILLYARD_RUN_RETENTION_DAYS ago (default 365; their links then say "removed").
0 turns a rule off. Needs DATABASE_URL. --dry-run counts without removing.`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
if (!process.env.DATABASE_URL) {
  console.error('DATABASE_URL is not set: point it at the registry database (npm start prints it as "database ready").');
  process.exit(2);
}
const db = createDb(process.env.DATABASE_URL);
const rules = readServerConfig().runRetention;
const result = await applyRunRetention(db, rules, { dryRun: args.includes('--dry-run') });
console.log(JSON.stringify({ rules, ...result }));
await db.$disconnect();
