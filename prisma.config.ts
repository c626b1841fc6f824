import path from 'node:path';
import { defineConfig } from 'prisma/config';

// Migrations are applied by scripts/migrate.ts at start (no engine download needed);
// users with internet access can still run `prisma migrate` against the same files.
export default defineConfig({
  schema: path.join('prisma', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'migrations') },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/skillyard' },
});
