// Printed after `npm install` when npm itself runs on Node older than 24: says what npm's
// EBADENGINE warnings above mean, so nobody has to decode them. The app, its scripts and
// the sandbox run on Node 24 from node_modules/.bin/node (the `node` devDependency), which
// is what isolated-vm, Prisma's local streams and axe-core ask for; npm's own Node only
// installs. The CLI package (dist/cli-package, served at /cli/skillyard.tgz) runs on 20+.
const agent = process.env.npm_config_user_agent ?? '';
const m = /\bnode\/v(\d+)/.exec(agent);
if (m && Number(m[1]) < 24) {
  console.log(
    `[skillyard] npm runs on Node ${m[1]} here: the "EBADENGINE" warnings above (isolated-vm, @prisma/streams-local, @axe-core/playwright ask for Node 22-24+) ` +
      'are expected and harmless. npm scripts (npm start, npm test, npm run build) run on Node 24 from node_modules/.bin/node, installed just now.',
  );
}
