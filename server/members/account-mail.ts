/** The e-mails of a member's own address change: the link to the new address, the notice to the old one. */
import type { MailMessage } from '../../platform/mail/message';
import { escapeHtml } from '../../shared/text';

export function emailChangeLinkMail({ to, name, link }: { to: string; name: string; link: string }): MailMessage {
  return {
    to,
    subject: 'Confirm your new e-mail address for Broadcast History Community',
    text: `Hello ${name},\n\nOpen this link to make ${to} the address of your Broadcast History Community account. It works once and expires in 24 hours:\n\n${link}\n\nIf you did not ask for this, you can ignore this e-mail: nothing changes.\n`,
    html: `<p>Hello ${escapeHtml(name)},</p><p>Open this link to make ${escapeHtml(to)} the address of your Broadcast History Community account. It works once and expires in 24 hours:</p><p><a href="${escapeHtml(link)}">Confirm my new e-mail address</a></p><p>If you did not ask for this, you can ignore this e-mail: nothing changes.</p>`,
  };
}

/** To the old address: if someone else changed it, the member hears of it where they still read mail. */
export function emailChangedNoticeMail({ to, name, at }: { to: string; name: string; at: string }): MailMessage {
  const when = new Date(at).toUTCString();
  return {
    to,
    subject: 'Your Broadcast History Community e-mail address was changed',
    text: `Hello ${name},\n\nThe e-mail address of your Broadcast History Community account was changed on ${when}; this address (${to}) no longer signs in.\n\nIf you did not make this change, please contact the community staff at once.\n`,
    html: `<p>Hello ${escapeHtml(name)},</p><p>The e-mail address of your Broadcast History Community account was changed on ${escapeHtml(when)}; this address (${escapeHtml(to)}) no longer signs in.</p><p>If you did not make this change, please contact the community staff at once.</p>`,
  };
}

/** To an address someone tried to move their account to, which already has one: the answer said nothing of it. */
export function emailTakenNoticeMail({ to, name }: { to: string; name: string | null }): MailMessage {
  const greeting = name ? `Hello ${name},` : 'Hello,';
  return {
    to,
    subject: 'Someone tried to use your address on Broadcast History Community',
    text: `${greeting}\n\nSomeone signed in to Broadcast History Community asked to move their account to this address (${to}). This address already has an account, yours, so nothing was changed.\n\nIf it was you, sign in with this address instead. Otherwise you can ignore this e-mail.\n`,
    html: `<p>${escapeHtml(greeting)}</p><p>Someone signed in to Broadcast History Community asked to move their account to this address (${escapeHtml(to)}). This address already has an account, yours, so nothing was changed.</p><p>If it was you, sign in with this address instead. Otherwise you can ignore this e-mail.</p>`,
  };
}
