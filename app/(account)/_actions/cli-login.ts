'use server';
import { redirect } from 'next/navigation';
import { currentUser } from '@/lib/auth/current-user';
import { approveDeviceLogin, denyDeviceLogin } from '@/lib/auth/device-login';
import { assertSameOrigin } from '@/lib/auth/same-origin';
import { actionFailure } from '@/lib/api/action-failure';
import { serverContext } from '@/lib/server';

export type CliLoginState = { error: string | null; done?: 'approved' | 'denied' };

export async function answerCliLogin(_prev: CliLoginState, form: FormData): Promise<CliLoginState> {
  await assertSameOrigin();
  const user = await currentUser();
  if (!user) redirect('/signin?next=/cli-login');
  const code = String(form.get('code') ?? '');
  try {
    if (form.get('answer') === 'deny') {
      await denyDeviceLogin(serverContext().db, code);
      return { error: null, done: 'denied' };
    }
    await approveDeviceLogin(serverContext().db, user.id, code, form.getAll('scope').map(String));
    return { error: null, done: 'approved' };
  } catch (err) {
    return { error: (await actionFailure(err, 'answer a CLI login')).message };
  }
}
