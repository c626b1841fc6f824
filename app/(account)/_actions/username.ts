'use server';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { currentUser } from '@/lib/auth/current-user';
import { assertSameOrigin } from '@/lib/auth/same-origin';
import { safeLocalPath } from '@/lib/auth/safe-redirect';
import { chooseUsername } from '@/lib/auth/usernames';
import { serverContext } from '@/lib/server';
import { actionFailure } from '@/lib/api/action-failure';

export type UsernameState = { error: string | null };

export async function chooseUsernameAction(_prev: UsernameState, form: FormData): Promise<UsernameState> {
  await assertSameOrigin();
  const user = await currentUser();
  if (!user) redirect('/signin');
  try {
    await chooseUsername(serverContext().db, user.id, String(form.get('username') ?? ''));
  } catch (err) {
    return { error: (await actionFailure(err, 'set a username')).message };
  }
  // the header (in the root layout) shows the new username
  revalidatePath('/', 'layout');
  redirect(safeLocalPath(form.get('next')));
}
