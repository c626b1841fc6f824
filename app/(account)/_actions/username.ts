'use server';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { serverAction, formText, type ActionState } from '@/lib/actions';
import { safeLocalPath, chooseUsername } from '@/lib/auth';

export type UsernameState = ActionState;

// chooseUsername says what is wrong with a username (lib/auth/usernames.ts)
const choose = serverAction({ name: 'set a username', input: z.object({ username: z.string() }), signedIn: { redirectTo: '/signin' } }, async ({ username }, { db, user }) => {
  await chooseUsername(db, user.id, username);
});

export async function chooseUsernameAction(_prev: UsernameState, form: FormData): Promise<UsernameState> {
  const state = await choose({ username: formText(form, 'username') ?? '' });
  if (!state.ok) return state;
  // the header (in the root layout) shows the new username
  revalidatePath('/', 'layout');
  redirect(safeLocalPath(form.get('next')));
}
