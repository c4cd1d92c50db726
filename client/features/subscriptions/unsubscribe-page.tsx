/**
 * The unsubscribe page (/unsubscribe/{token}), reached from the link in every
 * subscription e-mail without signing in. Its states are docs/domain/subscriptions.md#unsubscribe-page's; the
 * link counts as invalid when the lookup fails, is empty or says
 * TOKEN_NOT_FOUND (§8), and an address already unsubscribed sees success.
 */
import { useNavigate, useParams } from '@tanstack/react-router';
import { Button } from '../../components/ui/button';
import { ApiError, errorMessage } from '../../lib/api';
import { FREQUENCY_LABELS, SUBSCRIPTION_TYPE_LABELS, TOKEN_NOT_FOUND } from '../../../shared/subscriptions/constants';
import { useUnsubscribe, useUnsubscribeLookup } from './api';
import { Panel } from './panel';

const InvalidLink = () => (
  <Panel title="Invalid or Expired Link" tone="error">
    <p>This unsubscribe link is invalid or has expired.</p>
    <p>If you keep receiving e-mails you did not ask for, please contact support and we will remove your address.</p>
  </Panel>
);

const NotFound = () => (
  <Panel title="Subscription Not Found" tone="error">
    <p>We could not find the subscription this link belongs to. It may have been removed already.</p>
    <p>If you keep receiving e-mails, please contact support.</p>
  </Panel>
);

function Unsubscribed({ already }: { already: boolean }) {
  return already ? (
    <Panel title="Already Unsubscribed" tone="success">
      <p>This address is already unsubscribed. You will not receive these e-mails any more.</p>
    </Panel>
  ) : (
    <Panel title="Successfully Unsubscribed" tone="success">
      <p>You will no longer receive these e-mails. You can subscribe again at any time.</p>
    </Panel>
  );
}

const isTokenNotFound = (error: unknown) => error instanceof ApiError && error.status === 404 && error.body.includes(TOKEN_NOT_FOUND);

function Confirm({ token }: { token: string }) {
  const navigate = useNavigate();
  const lookup = useUnsubscribeLookup(token);
  const unsubscribe = useUnsubscribe(token);

  if (lookup.isPending)
    return (
      <Panel title="Checking your link">
        <p role="status" className="flex items-center gap-3">
          <span
            aria-hidden="true"
            className="size-6 animate-spin rounded-full border-4 border-slate-300 border-t-brand-600 dark:border-slate-700 dark:border-t-amber-accent"
          />
          Validating your unsubscribe link...
        </p>
      </Panel>
    );
  const found = lookup.data;
  if (lookup.isError || !found || 'error' in found) return <InvalidLink />;
  if (!found.subscription) return <NotFound />;
  if (found.alreadyUnsubscribed) return <Unsubscribed already />;
  if (unsubscribe.isSuccess) return <Unsubscribed already={unsubscribe.data.alreadyUnsubscribed} />;
  if (isTokenNotFound(unsubscribe.error)) return <NotFound />;

  const { subscription } = found;
  // "All Updates" covers several kinds of mail; naming them tells the reader what stops.
  const covered = subscription.subscriptionTypes.filter((type) => type !== subscription.subscriptionType);
  const typeLine =
    SUBSCRIPTION_TYPE_LABELS[subscription.subscriptionType] +
    (covered.length > 0 ? ` (${covered.map((type) => SUBSCRIPTION_TYPE_LABELS[type]).join(', ')})` : '');
  return (
    <Panel title="Unsubscribe from e-mails">
      <p>Do you want to stop receiving these e-mails?</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-lg bg-slate-50 p-4 text-sm dark:bg-slate-800">
        <dt className="font-medium">E-mail</dt>
        <dd className="break-all">{subscription.email}</dd>
        <dt className="font-medium">Type</dt>
        <dd>{typeLine}</dd>
        <dt className="font-medium">Frequency</dt>
        <dd>{FREQUENCY_LABELS[subscription.frequency] ?? subscription.frequency}</dd>
        <dt className="font-medium">Status</dt>
        <dd className="font-semibold text-green-700 dark:text-green-400">Active</dd>
      </dl>
      {unsubscribe.isError && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {errorMessage(unsubscribe.error, 'Failed to unsubscribe. Please try again or contact support.')}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-3 pt-2">
        <Button variant="secondary" onPress={() => void navigate({ to: '/' })}>
          Cancel
        </Button>
        <Button variant="destructive" onPress={() => unsubscribe.mutate()} isDisabled={unsubscribe.isPending}>
          {unsubscribe.isPending ? 'Unsubscribing...' : 'Unsubscribe'}
        </Button>
      </div>
    </Panel>
  );
}

export function UnsubscribePage() {
  const { token } = useParams({ strict: false });
  if (!token)
    return (
      <Panel title="Invalid Request" tone="error">
        <p>This page needs the unsubscribe link from one of our e-mails. Please open the link in the e-mail again.</p>
      </Panel>
    );
  return <Confirm token={token} />;
}
