// The hook for browser sessions: the identity engineer resolves the next-auth session
// here (auth() from lib/auth) and returns its user. Until then nobody is signed in on the
// web, and routes see API tokens and anonymous visitors only.

export async function sessionUser(_req: Request): Promise<{ userId: string } | null> {
  return null;
}
