'use server';
import { z } from 'zod';
import { serverAction, formText, type ActionState } from '@/lib/actions';
import { approveDeviceLogin, denyDeviceLogin } from '@/lib/auth';

export type CliLoginState = ActionState<{ done: 'approved' | 'denied' }>;

const Answer = z.object({ code: z.string(), deny: z.boolean(), scopes: z.array(z.string()) });

const answer = serverAction({ name: 'answer a CLI login', input: Answer, signedIn: { redirectTo: '/signin?next=/cli-login' } }, async ({ code, deny, scopes }, { db, user }) => {
  if (deny) {
    await denyDeviceLogin(db, code);
    return { done: 'denied' as const };
  }
  await approveDeviceLogin(db, user.id, code, scopes);
  return { done: 'approved' as const };
});

export async function answerCliLogin(_prev: CliLoginState, form: FormData): Promise<CliLoginState> {
  return answer({ code: formText(form, 'code') ?? '', deny: form.get('answer') === 'deny', scopes: form.getAll('scope').map(String) });
}
