/**
 * The page a sign-in link opens. Following the link signs no one in: the page asks for a press of its button, which
 * POSTs from our own origin. So a link to someone else's account, sent by them, cannot sign a visitor in unnoticed
 * (login CSRF), and mail scanners that fetch every link do not use it up. The page names the account, partly masked,
 * so the reader sees whose it is. Self-contained: inline styles only.
 */
import { escapeHtml } from '../../shared/text';

const CARD =
  'max-width:28rem;margin:4rem auto;padding:2rem;border:1px solid #d4d4d8;border-radius:12px;font-family:system-ui,sans-serif;color:#18181b;background:#fff';
const BUTTON = 'background:#1d4ed8;color:#fff;border:0;border-radius:6px;padding:10px 18px;font-size:16px;cursor:pointer';

/** `m•••@example.org`: enough for its owner to know it, too little for anyone else to learn it. */
export function maskedAddress(email: string): string {
  const at = email.lastIndexOf('@');
  return `${Array.from(email.slice(0, at))[0] ?? ''}•••${email.slice(at)}`;
}

function page(title: string, body: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(title)} · Broadcast History Community</title></head>` +
    `<body style="margin:0;background:#f4f4f5"><main style="${CARD}"><h1 style="font-size:1.5rem;margin:0 0 1rem">${escapeHtml(title)}</h1>${body}</main></body></html>`
  );
}

export function signInLinkPage(action: string, address: string): string {
  return page(
    'Sign in',
    `<p style="margin:0 0 1.5rem">Sign in to Broadcast History Community as <strong>${escapeHtml(maskedAddress(address))}</strong>?</p>` +
      `<form method="post" action="${escapeHtml(action)}"><button type="submit" style="${BUTTON}">Sign in</button></form>` +
      '<p style="margin:1.5rem 0 0;font-size:.875rem;color:#52525b">If you did not ask for this link, close this page: nothing happens.</p>',
  );
}

export function spentLinkPage(): string {
  return page(
    'Link not valid',
    '<p style="margin:0">This sign-in link has been used, has expired or was ended by a password change. Ask for a new one.</p>' +
      '<p style="margin:1.5rem 0 0"><a href="/login" style="color:#1d4ed8">Go to the sign-in page</a></p>',
  );
}

/** The page a registration link opens: the account is made only when its button is pressed (a POST), as for sign-in links. */
export function registrationLinkPage(action: string, address: string): string {
  return page(
    'Finish signing up',
    `<p style="margin:0 0 1.5rem">Create your Broadcast History Community account as <strong>${escapeHtml(maskedAddress(address))}</strong> and sign in?</p>` +
      `<form method="post" action="${escapeHtml(action)}"><button type="submit" style="${BUTTON}">Finish signing up</button></form>` +
      '<p style="margin:1.5rem 0 0;font-size:.875rem;color:#52525b">If you did not ask to join, close this page: no account is made.</p>',
  );
}

export function spentRegistrationLinkPage(): string {
  return page(
    'Link not valid',
    '<p style="margin:0">This link to finish signing up has been used or has expired. Register again to get a new one.</p>' +
      '<p style="margin:1.5rem 0 0"><a href="/register" style="color:#1d4ed8">Register</a> · <a href="/login" style="color:#1d4ed8">Sign in</a></p>',
  );
}

/** The address got an account between the link's mail and its use (another link of the same mailbox, used first). */
export function registeredAlreadyPage(): string {
  return page(
    'Already registered',
    '<p style="margin:0">This address already has an account. Sign in, or choose a new password if you forgot it.</p>' +
      '<p style="margin:1.5rem 0 0"><a href="/login" style="color:#1d4ed8">Sign in</a> · <a href="/forgot-password" style="color:#1d4ed8">Forgot your password?</a></p>',
  );
}
