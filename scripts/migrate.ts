// `npm run db:migrate`: applies pending migrations to DATABASE_URL (the server's start
// does this by itself; this is for deploying migrations ahead of a rollout).
import { applyMigrations } from '../lib/db/migrate.ts';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set. (`npm start` migrates the embedded database by itself.)');
  process.exit(2);
}
try {
  const applied = await applyMigrations(url);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date');
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
