// Who is asking: a signed-in user (session or personal API token), a team API token
// (acting as its team), or nobody. Every authorization decision starts from this.
import 'server-only';
export type Principal =
  | { kind: 'user'; userId: string; tokenId?: string; scopes?: string[] }
  | { kind: 'team'; teamId: string; userId: string; tokenId: string; scopes: string[] }
  | { kind: 'anonymous' };

export const ANONYMOUS: Principal = { kind: 'anonymous' };

export function userPrincipal(userId: string | null | undefined): Principal {
  return userId ? { kind: 'user', userId } : ANONYMOUS;
}
