// E-mail sign-in: a one-time link sent by SMTP when SKILLYARD_SMTP_URL is set, printed to
// the server's log otherwise (the sign-in page says which), so that a fresh `npm start`
// with nothing configured still lets a person sign in.
import 'server-only';
import type { EmailConfig } from 'next-auth/providers';
import { createTransport } from 'nodemailer';
import { normalizeSignInEmail } from './normalize-email';
import { setting } from '../config';

export const emailDelivery = (): 'smtp' | 'log' => (setting('SKILLYARD_SMTP_URL') ? 'smtp' : 'log');

export function emailProvider(): EmailConfig {
  return {
    id: 'email',
    type: 'email',
    name: 'Email',
    from: setting('SKILLYARD_SMTP_FROM'),
    maxAge: 15 * 60,
    // Auth.js's own rule, spelled out: the sign-in limit keys on the very same address
    normalizeIdentifier: normalizeSignInEmail,
    options: {},
    async sendVerificationRequest({ identifier, url, provider }) {
      const host = new URL(url).host;
      if (emailDelivery() === 'log') {
        // the log is the mailbox in this mode: the operator reads the link there
        console.log(`[auth] sign-in link for ${identifier} (no SKILLYARD_SMTP_URL set; valid 15 minutes):\n${url}`);
        return;
      }
      // The link is built on the request's Host, which a script can forge: mailed to a victim,
      // a link to the forger's host would hand them the one-time token. By e-mail, links go
      // only to the site's pinned origin (AUTH_URL).
      const site = setting('AUTH_URL') ?? setting('NEXTAUTH_URL');
      if (!site) throw new Error('e-mail sign-in by SMTP needs AUTH_URL (the public URL of this site) so that links cannot point elsewhere');
      if (new URL(url).origin !== new URL(site).origin) throw new Error(`refused to mail a sign-in link for ${host}, which is not AUTH_URL`);
      const transport = createTransport(setting('SKILLYARD_SMTP_URL'));
      const result = await transport.sendMail({
        to: identifier,
        from: provider.from,
        subject: `Sign in to Skillyard (${host})`,
        text: `Sign in to Skillyard at ${host}:\n${url}\n\nThe link works once, for 15 minutes. If you did not ask for it, ignore this e-mail.\n`,
      });
      const failed = [...(result.rejected ?? []), ...(result.pending ?? [])];
      if (failed.length) throw new Error('the sign-in e-mail could not be sent');
    },
  };
}
