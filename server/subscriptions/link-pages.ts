/**
 * Unsubscribing without JavaScript: the SPA's unsubscribe page carries a plain
 * form inside <noscript>, and the POST it sends is answered with a small page of
 * its own instead of JSON. Both are self-contained (inline styles only), since
 * the site's stylesheet only has the classes the client uses.
 */
import * as v from 'valibot';
import { TokenSchema } from '../../shared/subscriptions/schemas';
import { escapeHtml } from '../../shared/text';

const BUTTON = 'background:#b91c1c;color:#fff;border:0;border-radius:6px;padding:10px 18px;font-size:16px;cursor:pointer';
const CARD = 'max-width:28rem;margin:4rem auto;padding:2rem;border:1px solid #d4d4d8;border-radius:12px;font-family:system-ui,sans-serif;color:#18181b;background:#fff';

/**
 * The SPA page's HTML with a form for browsers without JavaScript. A token that
 * is not a well-formed one gets no form: the page then shows its invalid-link state.
 * The form names no one-click field, so its POST is recorded as a link unsubscribe.
 */
export function withNoscriptUnsubscribeForm(indexHtml: string, token: string): string {
  if (!v.is(TokenSchema, token)) return indexHtml;
  const form =
    `<noscript><div style="${CARD}"><h1 style="font-size:1.5rem;margin:0 0 1rem">Unsubscribe</h1>` +
    '<p style="margin:0 0 1.5rem">Stop the e-mails of the subscription this link was sent for.</p>' +
    `<form method="post" action="/api/unsubscribe/${escapeHtml(token)}"><button type="submit" style="${BUTTON}">Unsubscribe</button></form>` +
    '</div></noscript>';
  return indexHtml.includes('</body>') ? indexHtml.replace('</body>', `${form}</body>`) : indexHtml + form;
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
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)} · Broadcast History Community</title></head>` +
    `<body style="margin:0;background:#f4f4f5"><main style="${CARD}"><h1 style="font-size:1.5rem;margin:0 0 1rem">${escapeHtml(title)}</h1>${body}` +
    '<p style="margin:1.5rem 0 0"><a href="/" style="color:#1d4ed8">Go to the Broadcast History Community</a></p></main></body></html>';
}

/** The answer to a form unsubscribe; an earlier unsubscribe is shown as success too (spec 2 §4). */
export function unsubscribedPage(email: string, typeLabel: string, alreadyUnsubscribed: boolean): string {
  const text = alreadyUnsubscribed
    ? `${escapeHtml(email)} was already unsubscribed from ${escapeHtml(typeLabel)} e-mails. No further e-mails will be sent.`
    : `${escapeHtml(email)} will no longer receive ${escapeHtml(typeLabel)} e-mails.`;
  return page('Successfully Unsubscribed', `<p style="margin:0">${text}</p>`);
}

export function linkNotFoundPage(): string {
  return page('Invalid or Expired Link', '<p style="margin:0">This unsubscribe link is invalid or has expired. Please contact support if you keep receiving e-mails.</p>');
}
