// Shared by both tools: one GET to the demo API with the connected account's token.
export type Granted = { issuer: string; secret: string; expired: boolean };
export type Capabilities = {
  net: { fetch(url: string, init?: { headers?: Record<string, string> }): Promise<{ status: number; json(): Promise<unknown> }> };
  tokens: Granted[];
};

export async function callApi(capabilities: Capabilities, baseUrl: string, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const token = capabilities.tokens.find((t) => t.issuer === '@oauth/oidc');
  if (!token) return { status: 0, body: { error: 'no @oauth/oidc token: connect your account first' } };
  const res = await capabilities.net.fetch(`${baseUrl.replace(/\/+$/, '')}${path}`, { headers: { authorization: `Bearer ${token.secret}`, accept: 'application/json' } });
  let body: Record<string, unknown> = {};
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    body = {};
  }
  return { status: res.status, body };
}
