// `npm run dev:oidc`: the tests' OpenID Connect server (oidc-provider) as a development
// login and connection on this machine, with its demo API that the bundled
// @skillyard/connected-api tools call. It prints the environment to start Skillyard with.
import { startTestOidc } from '../test/oidc-server.ts';

const port = Number(process.env.SKILLYARD_DEV_OIDC_PORT ?? 4319);
const appPort = process.env.PORT ?? 3000;
// the printed URL (localhost) and 127.0.0.1 both sign in; SKILLYARD_URL adds a public origin
const apps = [`http://localhost:${appPort}`, `http://127.0.0.1:${appPort}`, ...(process.env.SKILLYARD_URL ? [process.env.SKILLYARD_URL.replace(/\/+$/, '')] : [])];
const idp = await startTestOidc({ port, redirectUris: apps.map((app) => `${app}/api/auth/callback/oidc`), controlEndpoints: true });
console.log(`Development OpenID Connect server on ${idp.issuer} (any login name; consent page asks once).
Start Skillyard with:
  SKILLYARD_OIDC_ISSUER=${idp.issuer} SKILLYARD_OIDC_ID=${idp.clientId} SKILLYARD_OIDC_SECRET=${idp.clientSecret} \\
  SKILLYARD_OIDC_NAME="Dev IdP" SKILLYARD_NET_ALLOW=127.0.0.1/32 npm start
The connected-api tools take base_url ${idp.upstreamUrl}`);
process.on('SIGINT', () => void idp.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void idp.close().then(() => process.exit(0)));
