/**
 * The two e-mails a registration sends, one or the other, while its answer is the same for every address
 * (docs/domain/members.md#registration): to an address without an account, the link that finishes signing up; to one
 * with an account, a notice that someone tried to register it, with the ways in for its owner. Neither greets by the
 * name typed into the form: whoever registers may type anything there, and the mail goes to an address they may not own.
 */
import type { MailMessage } from '../../platform/mail/message';
import { escapeHtml } from '../../shared/text';

export function registrationLinkMail({ to, link }: { to: string; link: string }): MailMessage {
  return {
    to,
    subject: 'Finish signing up for Broadcast History Community',
    text: `Hello,\n\nSomeone (we hope you) asked to join Broadcast History Community with this address (${to}). Open this link to finish signing up; it works once and expires in 24 hours:\n\n${link}\n\nIf you did not ask for this, you can ignore this e-mail: no account is made.\n`,
    html: `<p>Hello,</p><p>Someone (we hope you) asked to join Broadcast History Community with this address (${escapeHtml(to)}). Open this link to finish signing up; it works once and expires in 24 hours:</p><p><a href="${escapeHtml(link)}">Finish signing up</a></p><p>If you did not ask for this, you can ignore this e-mail: no account is made.</p>`,
  };
}

/** To an address that already has an account: the registration's answer said nothing of it, so its owner hears here. */
export function registrationTakenMail({
  to,
  name,
  signInLink,
  resetLink,
}: {
  to: string;
  name: string;
  signInLink: string;
  resetLink: string;
}): MailMessage {
  return {
    to,
    subject: 'Someone tried to register your address on Broadcast History Community',
    text: `Hello ${name},\n\nSomeone tried to register a new Broadcast History Community account with this address (${to}). It already has an account, yours, so nothing was made or changed.\n\nIf it was you, sign in instead:\n${signInLink}\n\nForgot your password? Choose a new one:\n${resetLink}\n\nIf it was not you, you can ignore this e-mail.\n`,
    html: `<p>Hello ${escapeHtml(name)},</p><p>Someone tried to register a new Broadcast History Community account with this address (${escapeHtml(to)}). It already has an account, yours, so nothing was made or changed.</p><p>If it was you, <a href="${escapeHtml(signInLink)}">sign in instead</a>.</p><p>Forgot your password? <a href="${escapeHtml(resetLink)}">Choose a new one</a>.</p><p>If it was not you, you can ignore this e-mail.</p>`,
  };
}
