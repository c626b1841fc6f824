import { startEmbeddedPostgres } from '/work/main/lib/db/embedded-postgres.ts';
const t = Date.now();
const db = await startEmbeddedPostgres({ dataDir: '/work/main/.data', port: 54329 });
console.log('started', Date.now() - t, db.url.replace(/:[^:@]*@/, ':***@'));
await db.stop();
console.log('stopped');
