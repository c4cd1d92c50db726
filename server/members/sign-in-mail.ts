/** The one-time sign-in link e-mail. */
import type { MailMessage } from '../../platform/mail/message';
import { escapeHtml } from '../../shared/text';

export function signInMail({ to, name, link }: { to: string; name: string; link: string }): MailMessage {
  return {
    to,
    subject: 'Your sign-in link for Broadcast History Community',
    text: `Hello ${name},\n\nUse this link to sign in. It works once and expires in 15 minutes:\n\n${link}\n\nIf you did not ask for it, you can ignore this e-mail.\n`,
    html: `<p>Hello ${escapeHtml(name)},</p><p>Use this link to sign in. It works once and expires in 15 minutes:</p><p><a href="${escapeHtml(link)}">Sign in to Broadcast History Community</a></p><p>If you did not ask for it, you can ignore this e-mail.</p>`,
  };
}
