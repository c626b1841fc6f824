export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    // callers already past their limits are refused before routing (lib/api/front-door.ts)
    const { installFrontDoor } = await import('./lib/api/front-door');
    installFrontDoor();
    const { startServerWorker } = await import('./lib/runs/start-server-worker');
    const { serverContext } = await import('./lib/server');
    await startServerWorker(serverContext);
    // the run log's retention, about once an hour (npm run runs:retention applies it now)
    const { setting } = await import('./lib/config');
    if (setting('DATABASE_URL')) {
      const { startRunRetention } = await import('./lib/runs/run-retention-timer');
      const server = serverContext();
      startRunRetention(server.db, server.config.runRetention);
    }
  }
}
