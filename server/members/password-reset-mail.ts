/** The password reset e-mail: a link to the page where a new password is chosen. */
import type { MailMessage } from '../../platform/mail/message';
import { escapeHtml } from '../../shared/text';

export function passwordResetMail({ to, name, link }: { to: string; name: string; link: string }): MailMessage {
  return {
    to,
    subject: 'Choose a new password for Broadcast History Community',
    text: `Hello ${name},\n\nSomeone (we hope you) asked to reset the password of your Broadcast History Community account. Open this link to choose a new one. It works once and expires in 60 minutes:\n\n${link}\n\nChoosing a new password signs you out everywhere.\n\nIf you did not ask for it, you can ignore this e-mail: your password stays as it is.\n`,
    html: `<p>Hello ${escapeHtml(name)},</p><p>Someone (we hope you) asked to reset the password of your Broadcast History Community account. Open this link to choose a new one. It works once and expires in 60 minutes:</p><p><a href="${escapeHtml(link)}">Choose a new password</a></p><p>Choosing a new password signs you out everywhere.</p><p>If you did not ask for it, you can ignore this e-mail: your password stays as it is.</p>`,
  };
}
