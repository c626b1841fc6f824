import type { Metadata } from 'next';
import { emailDelivery } from '@/lib/auth';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Check your e-mail' };

export default function CheckEmailPage() {
  const logged = emailDelivery() === 'log';
  return (
    <div className="mx-auto max-w-md space-y-4 py-12 text-center">
      <h1 className="text-2xl font-semibold tracking-tight">{logged ? 'Open the link from the server log' : 'Check your e-mail'}</h1>
      <p className="text-zinc-600 dark:text-zinc-400" data-testid="check-email">
        {logged
          ? 'No mail server is configured, so the sign-in link was printed to the server’s log (a line starting with “[auth] sign-in link”). Open it in this browser within 15 minutes.'
          : 'We sent you a sign-in link. Open it in this browser within 15 minutes; it works once.'}
      </p>
    </div>
  );
}
