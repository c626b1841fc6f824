// oidc-provider ships no types; the tests use a small part of it (test/oidc-server.ts).
declare module 'oidc-provider' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const Provider: any;
  export default Provider;
}
