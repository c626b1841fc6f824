// The signed-in user of this request (from the next-auth database session), or null.
import 'server-only';
import { cache } from 'react';
import { auth } from './auth';

export type CurrentUser = { id: string; handle: string | null; name: string | null; email: string | null; image: string | null };

export const currentUser = cache(async (): Promise<CurrentUser | null> => {
  const session = await auth();
  if (!session?.user?.id) return null;
  const u = session.user;
  return { id: u.id, handle: u.handle ?? null, name: u.name ?? null, email: u.email ?? null, image: u.image ?? null };
});
