// `npm run db:seed`: publishes the bundled skills (skills/) into DATABASE_URL, as
// `npm start` does on a laptop; a deploy step in production mode (docs/deploy.md).
import path from 'node:path';
import { createDb } from '../lib/db/client.ts';
import { seedBundledSkills } from '../lib/registry/seed-bundled-skills.ts';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set. (`npm start` seeds the embedded database by itself.)');
  process.exit(2);
}
const db = createDb(url);
try {
  const seed = await seedBundledSkills(db, path.join(process.cwd(), 'skills'));
  console.log(
    `bundled skills: ${seed.published.length} published, ${seed.unchanged.length} unchanged` +
      (seed.invalid.length ? `, ${seed.invalid.length} invalid (${seed.invalid.join(', ')})` : ''),
  );
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
