// Playwright's web server: the real app (`scripts/start.ts`, production build) on a
// throwaway database of its own, dropped when Playwright stops the server.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createScratchDatabase, databaseUrl, dropScratchDatabase, startScratchServer } from '../lib/db/scratch-database.ts';
import { startTestOidc } from '../test/oidc-server.ts';
import { startTestCiIssuer } from '../test/ci-oidc-issuer.ts';

const port = process.env.E2E_PORT ?? '3100';
const server = await startScratchServer('e2e', Number(process.env.SKILLYARD_E2E_PG_PORT ?? 54331));
const name = await createScratchDatabase(server.adminUrl, 'skillyard_e2e');
// e2e specs that need rows of their own (a user with an API token) read the URL here
const e2eUrl = databaseUrl(server.adminUrl, name);
fs.mkdirSync('.data', { recursive: true });
fs.writeFileSync('.data/e2e-database-url', e2eUrl, { mode: 0o600 });
// a real OpenID Connect server with its demo API for e2e/auth.spec.ts (sign-in, connect, refresh)
const oidcPort = Number(process.env.E2E_OIDC_PORT ?? Number(port) + 1000);
const idp = await startTestOidc({
  port: oidcPort,
  redirectUris: [`http://127.0.0.1:${port}/api/auth/callback/oidc`, `http://localhost:${port}/api/auth/callback/oidc`],
  controlEndpoints: true,
});
// a CI provider's OIDC issuer for e2e/evidence-provenance.spec.ts (trusted publishing)
const ci = await startTestCiIssuer({ port: Number(process.env.E2E_CI_OIDC_PORT ?? oidcPort + 500), controlEndpoint: true });
const oidcEnv = {
  SKILLYARD_OIDC_ALLOW_PRIVATE: '1',
  SKILLYARD_OIDC_AUDIENCE: 'https://registry.skillyard.test',
  SKILLYARD_OIDC_GITHUB_ISSUERS: ci.issuer,
  SKILLYARD_OIDC_ISSUER: idp.issuer,
  SKILLYARD_OIDC_ID: idp.clientId,
  SKILLYARD_OIDC_SECRET: idp.clientSecret,
  SKILLYARD_OIDC_NAME: 'Test IdP',
  SKILLYARD_NET_ALLOW: [process.env.SKILLYARD_NET_ALLOW, '127.0.0.1/32'].filter(Boolean).join(','),
};
const app = spawn(process.execPath, ['scripts/start.mjs', '--port', port], {
  stdio: 'inherit',
  // a short drain: Playwright gives its web server 15 s to stop
  env: { ...process.env, DATABASE_URL: databaseUrl(server.adminUrl, name), NODE_ENV: 'production', SKILLYARD_DRAIN_SECONDS: '3', ...oidcEnv },
});

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  if (app.exitCode === null) {
    app.kill('SIGTERM');
    await new Promise((resolve) => app.once('exit', resolve));
  }
  await idp.close().catch(() => {});
  await ci.close().catch(() => {});
  await dropScratchDatabase(server.adminUrl, name).catch(() => {});
  await server.stop();
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
app.on('exit', (code) => void stop(code ?? 1));
