/**
 * The admins' mailbox (/mailbox): in development, with no SMTP_URL, the site's
 * mail lands in an in-process sink, and admins read it here as a recipient
 * would (headers, the HTML part, the text part), so a newcomer can watch
 * confirmations and digests arrive. Sign-in, confirmation and unsubscribe links
 * come with their token masked by the server: reading someone's mail here
 * must not let anyone act as them; "Follow this link" opens the real one in the admin's own browser (development
 * only: the server answers 404 in production), so a newcomer can sign in, confirm or reset a password locally.
 * Beside it, the consent record: every
 * subscription of one address with its history.
 */
import { useState, type FormEvent } from 'react';
import { Button, buttonLook } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { ApiError, errorMessage } from '../../lib/api';
import { useCurrentUser } from '../../lib/current-user';
import { LoadMore } from '../../lib/paged-list';
import { useConsentRecord, useMail, useMailbox } from './api';
import { FREQUENCY_LABELS, SUBSCRIPTION_TYPE_LABELS, type Frequency, type SubscriptionType } from '../../../shared/subscriptions/constants';

/** The consent record's entries in words; an entry this page does not know yet shows its name. */
const CONSENT_EVENTS: Record<string, string> = {
  requested: 'Requested',
  confirmation_sent: 'Confirmation link sent',
  confirmed: 'Confirmed',
  frequency_changed: 'Frequency changed',
  paused: 'Paused',
  resumed: 'Resumed',
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
};
const consentEvent = (event: string) => CONSENT_EVENTS[event] ?? event.replaceAll('_', ' ');

const card = 'rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900';
const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function MailView({ id }: { id: string }) {
  const mail = useMail(id);
  if (mail.isPending) return <p role="status">Loading message...</p>;
  if (mail.isError) return <p role="alert">{errorMessage(mail.error, 'This message is no longer in the mailbox.')}</p>;
  const m = mail.data;
  return (
    <article aria-labelledby="mail-subject" className="min-w-0 space-y-4">
      <h2 id="mail-subject" className="text-lg font-semibold break-words">
        {m.subject || '(no subject)'}
      </h2>
      {m.links.length > 0 && (
        <section aria-labelledby="mail-links">
          <h3 id="mail-links" className="mb-1 text-sm font-semibold">
            Links in this message
          </h3>
          <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">
            Development only. Following a link opens the real one in this browser, as the addressee would: a sign-in link signs this browser
            in as them.
          </p>
          <ul className="space-y-2">
            {m.links.map((link, index) => (
              <li
                key={link.follow}
                className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 p-2 dark:border-slate-800"
              >
                <code className="min-w-0 flex-1 text-xs break-all">{link.masked}</code>
                <a
                  href={link.follow}
                  className={buttonLook('secondary')}
                  aria-label={m.links.length > 1 ? `Follow this link (${index + 1} of ${m.links.length})` : undefined}
                >
                  Follow this link
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="mail-headers">
        <h3 id="mail-headers" className="mb-1 text-sm font-semibold">
          Headers
        </h3>
        <div className="max-h-64 overflow-auto rounded-lg border border-slate-200 dark:border-slate-800">
          <table className="w-full text-left text-xs">
            <tbody>
              {Object.entries(m.headers).map(([name, value]) => (
                <tr key={name} className="border-b border-slate-100 align-top last:border-0 dark:border-slate-800">
                  <th scope="row" className="p-2 font-mono font-medium whitespace-nowrap">
                    {name}
                  </th>
                  <td className="p-2 font-mono break-all">{value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="mail-html">
        <h3 id="mail-html" className="mb-1 text-sm font-semibold">
          HTML part
        </h3>
        {m.html ? (
          // An empty sandbox: the message's markup renders, but its scripts, forms and links cannot act on the app.
          <iframe
            title="Message as HTML"
            sandbox=""
            srcDoc={m.html}
            className="h-96 w-full rounded-lg border border-slate-200 bg-white dark:border-slate-800"
          />
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">This message has no HTML part.</p>
        )}
      </section>
      <section aria-labelledby="mail-text">
        <h3 id="mail-text" className="mb-1 text-sm font-semibold">
          Text part
        </h3>
        <pre className="max-h-96 overflow-auto rounded-lg bg-slate-50 p-3 text-xs whitespace-pre-wrap break-words dark:bg-slate-800">
          {m.text || '(empty)'}
        </pre>
      </section>
    </article>
  );
}

function CapturedMail() {
  const list = useMailbox({ refetchOnMount: 'always' });
  const [selected, setSelected] = useState<string | null>(null);
  if (list.isPending) return <Spinner label="Loading the mailbox" />;
  if (list.isError)
    return list.error instanceof ApiError && list.error.status === 404 ? (
      <p className={card}>
        Mail is sent through the SMTP relay configured in SMTP_URL, so no copy is kept here. The development mailbox exists only when
        SMTP_URL is not set.
      </p>
    ) : (
      <p role="alert" className={card}>
        The mailbox could not be loaded. Please refresh the page and try again.
      </p>
    );
  if (list.data.length === 0) return <p className={card}>No mail has been sent yet.</p>;
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <ul aria-label="Captured mail" className={`${card} max-h-[70vh] space-y-1 overflow-auto p-2`}>
        {list.data.map((mail) => (
          <li key={mail.id}>
            <button
              type="button"
              onClick={() => setSelected(mail.id)}
              aria-current={selected === mail.id ? 'true' : undefined}
              className="block min-h-11 w-full rounded-md p-2 text-left hover:bg-slate-100 aria-[current]:bg-brand-50 dark:hover:bg-slate-800 dark:aria-[current]:bg-slate-800"
            >
              <span className="block truncate font-medium">{mail.subject || '(no subject)'}</span>
              <span className="block truncate text-xs text-slate-600 dark:text-slate-400">To {mail.to.join(', ')}</span>
              <time dateTime={mail.date} className="block text-xs text-slate-600 dark:text-slate-400">
                {when(mail.date)}
              </time>
            </button>
          </li>
        ))}
      </ul>
      <div className={card}>
        {selected ? <MailView id={selected} /> : <p className="text-slate-600 dark:text-slate-400">Select a message to read it.</p>}
      </div>
    </div>
  );
}

function ConsentLookup() {
  const [draft, setDraft] = useState('');
  const [email, setEmail] = useState<string | null>(null);
  const { list: record, items: subscriptions } = useConsentRecord(email);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = draft.trim();
    if (!wanted) return;
    // Looking the same address up again asks the server again: consent may have changed meanwhile.
    if (wanted === email) void record.refetch();
    else setEmail(wanted);
  };
  return (
    <section aria-labelledby="consent-record" className={card}>
      <h2 id="consent-record" className="font-semibold">
        Consent record
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Every subscription of one e-mail address, with when it was asked for, confirmed, changed and ended.
      </p>
      <form onSubmit={onSubmit} className="mt-3 flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1">
          <TextField label="E-mail address" type="email" value={draft} onChange={setDraft} />
        </div>
        <Button type="submit">Look up</Button>
      </form>
      {email !== null && (
        <div className="mt-4">
          {record.isPending || (record.isFetching && !record.isFetchingNextPage) ? (
            <p role="status">Looking up {email}...</p>
          ) : record.isError ? (
            <p role="alert" className="text-red-700 dark:text-red-400">
              {errorMessage(record.error, 'The consent record could not be loaded.')}
            </p>
          ) : subscriptions.length === 0 ? (
            <p>No subscriptions for {email}.</p>
          ) : (
            <ul aria-label={`Subscriptions of ${email}`} className="space-y-3">
              {subscriptions.map((subscription) => (
                <li key={subscription.id} className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
                  <p className="font-medium">
                    {SUBSCRIPTION_TYPE_LABELS[subscription.subscriptionType]} · {FREQUENCY_LABELS[subscription.frequency]} ·{' '}
                    {subscription.status}
                    {subscription.status !== 'unsubscribed' && !subscription.isActive && ' (paused)'}
                  </p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    Created <time dateTime={subscription.createdAt}>{when(subscription.createdAt)}</time>
                  </p>
                  <ol aria-label="History" className="mt-2 space-y-1 border-l-2 border-slate-200 pl-3 text-sm dark:border-slate-700">
                    {subscription.history.map((entry, index) => (
                      <li key={index}>
                        <time dateTime={entry.at} className="text-slate-600 dark:text-slate-400">
                          {when(entry.at)}
                        </time>{' '}
                        <span className="font-medium">{consentEvent(entry.event)}</span>
                        {entry.detail && <span className="text-slate-600 dark:text-slate-400"> — {entry.detail}</span>}
                      </li>
                    ))}
                  </ol>
                </li>
              ))}
            </ul>
          )}
          <LoadMore list={record} label="Load more subscriptions" />
        </div>
      )}
    </section>
  );
}

export function MailboxPage() {
  const { data: user } = useCurrentUser();
  if (user?.role !== 'admin')
    return (
      <div className="py-16 text-center">
        <h1 className="text-2xl font-bold">Access Denied</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">Only admins can view the mailbox.</p>
      </div>
    );
  return (
    <div className="space-y-6">
      <PageHeader
        title="Mailbox"
        description="Mail the site has sent, caught in development instead of being delivered (sign-in, password reset, confirmation and unsubscribe links show their token masked; “Follow this link” opens the real one), and the consent record of any address."
      />
      <CapturedMail />
      <ConsentLookup />
    </div>
  );
}
