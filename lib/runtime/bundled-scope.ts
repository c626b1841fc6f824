// The operator's own scope: the skills seeded from skills/ are published as @skillyard/<name>.
// The runtime trusts its middleware around any skill's tools (see skill-middleware.ts).
export const BUNDLED_SCOPE = 'skillyard';
