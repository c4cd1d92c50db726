/**
 * Unsubscribing and confirming without JavaScript: the SPA's unsubscribe and confirmation pages carry a
 * plain form inside <noscript>, and the POST it sends is answered with a small page of
 * its own instead of JSON. Both are self-contained (inline styles only), since
 * the site's stylesheet only has the classes the client uses.
 */
import * as v from 'valibot';
import { TokenSchema } from '../../shared/subscriptions/schemas';
import { escapeHtml } from '../../shared/text';

const BUTTON = 'background:#b91c1c;color:#fff;border:0;border-radius:6px;padding:10px 18px;font-size:16px;cursor:pointer';
const CONFIRM_BUTTON = BUTTON.replace('#b91c1c', '#1d4ed8');
const CARD =
  'max-width:28rem;margin:4rem auto;padding:2rem;border:1px solid #d4d4d8;border-radius:12px;font-family:system-ui,sans-serif;color:#18181b;background:#fff';

/** The SPA page's HTML with a one-button form inside <noscript>, for browsers without JavaScript. */
function withNoscriptForm(
  indexHtml: string,
  form: { title: string; text: string; action: string; button: string; buttonStyle: string },
): string {
  const html =
    `<noscript><div style="${CARD}"><h1 style="font-size:1.5rem;margin:0 0 1rem">${escapeHtml(form.title)}</h1>` +
    `<p style="margin:0 0 1.5rem">${escapeHtml(form.text)}</p>` +
    `<form method="post" action="${escapeHtml(form.action)}"><button type="submit" style="${form.buttonStyle}">${escapeHtml(form.button)}</button></form>` +
    '</div></noscript>';
  return indexHtml.includes('</body>') ? indexHtml.replace('</body>', () => `${html}</body>`) : indexHtml + html;
}

/**
 * The unsubscribe page for browsers without JavaScript. A token that is not a well-formed one gets no form:
 * the page then shows its invalid-link state. The form names no one-click field, so its POST is recorded as
 * a link unsubscribe.
 */
export function withNoscriptUnsubscribeForm(indexHtml: string, token: string): string {
  if (!v.is(TokenSchema, token)) return indexHtml;
  return withNoscriptForm(indexHtml, {
    title: 'Unsubscribe',
    text: 'Stop the e-mails of the subscription this link was sent for.',
    action: `/api/unsubscribe/${token}`,
    button: 'Unsubscribe',
    buttonStyle: BUTTON,
  });
}

/** The subscription confirmation page for browsers without JavaScript: confirming is a POST, never the link itself. */
export function withNoscriptConfirmForm(indexHtml: string, token: string): string {
  if (!v.is(TokenSchema, token)) return indexHtml;
  return withNoscriptForm(indexHtml, {
    title: 'Confirm your subscription',
    text: 'Press the button to start receiving the e-mails you asked for.',
    action: `/api/subscribe/confirm/${token}`,
    button: 'Confirm subscription',
    buttonStyle: CONFIRM_BUTTON,
  });
}

/** Whether the caller (a browser's form POST) prefers an HTML page to JSON: text/html weighs more than application/json. */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const weights = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    weights.set(type.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const weight = (type: string) => weights.get(type) ?? weights.get(`${type.split('/')[0]}/*`) ?? weights.get('*/*') ?? 0;
  return weight('text/html') > weight('application/json');
}

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)} · Broadcast History Community</title></head>` +
    `<body style="margin:0;background:#f4f4f5"><main style="${CARD}"><h1 style="font-size:1.5rem;margin:0 0 1rem">${escapeHtml(title)}</h1>${body}` +
    '<p style="margin:1.5rem 0 0"><a href="/" style="color:#1d4ed8">Go to the Broadcast History Community</a></p></main></body></html>'
  );
}

/** The answer to a form unsubscribe; an earlier unsubscribe is shown as success too (docs/domain/subscriptions.md#unsubscribe). */
export function unsubscribedPage(email: string, typeLabel: string, alreadyUnsubscribed: boolean): string {
  const text = alreadyUnsubscribed
    ? `${escapeHtml(email)} was already unsubscribed from ${escapeHtml(typeLabel)} e-mails. No further e-mails will be sent.`
    : `${escapeHtml(email)} will no longer receive ${escapeHtml(typeLabel)} e-mails.`;
  return page('Successfully Unsubscribed', `<p style="margin:0">${text}</p>`);
}

export function linkNotFoundPage(): string {
  return page(
    'Invalid or Expired Link',
    '<p style="margin:0">This unsubscribe link is invalid or has expired. Please contact support if you keep receiving e-mails.</p>',
  );
}

/** The answer to the confirmation page's form without JavaScript. */
export function confirmationPage(outcome: 'confirmed' | 'link' | 'ended'): string {
  if (outcome === 'link')
    return page(
      'Confirmation link not valid',
      '<p style="margin:0">This link is invalid or has expired. Subscribe again to get a new confirmation e-mail.</p>',
    );
  if (outcome === 'ended')
    return page('Subscription ended', '<p style="margin:0">This subscription has ended. Subscribe again to receive e-mails.</p>');
  return page(
    'Subscription confirmed',
    '<p style="margin:0">Thank you. Your e-mail address is confirmed, and our updates will start arriving at the frequency you chose.</p>',
  );
}
