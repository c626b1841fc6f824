export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    // callers already past their limits are refused before routing (lib/api/front-door.ts)
    const { installFrontDoor } = await import('./lib/api/front-door');
    installFrontDoor();
    const { startServerWorker } = await import('./lib/runs/start-server-worker');
    await startServerWorker();
  }
}
