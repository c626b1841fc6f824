export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startServerWorker } = await import('./lib/runs/start-server-worker');
    await startServerWorker();
  }
}
