/**
 * Where a guest's confirmation mail links to (/subscribe/confirm/{token}). Opening the link confirms
 * nothing, since mail scanners open links to check them; the visitor's press of the button does, by POST,
 * and the outcome is shown on /subscribe/confirmed. Without JavaScript the server's <noscript> form does
 * the same.
 */
import { useEffect } from 'react';
import { useNavigate, useParams } from '@tanstack/react-router';
import { Button } from '../../components/ui/button';
import { ApiError, errorMessage } from '../../lib/api';
import { useConfirmSubscription } from './api';
import { Panel } from './panel';

/** The confirmed page's error for an answer of the confirm call, if it is one that page explains. */
function outcomeOf(error: unknown): 'link' | 'ended' | null {
  if (!(error instanceof ApiError)) return null;
  return error.status === 404 ? 'link' : error.status === 409 ? 'ended' : null;
}

export function ConfirmSubscriptionPage() {
  const { token = '' } = useParams({ strict: false });
  const navigate = useNavigate();
  const confirm = useConfirmSubscription(token);
  const outcome = confirm.isSuccess ? 'confirmed' : outcomeOf(confirm.error);

  useEffect(() => {
    if (outcome === 'confirmed') void navigate({ to: '/subscribe/confirmed', replace: true });
    else if (outcome) void navigate({ to: '/subscribe/confirmed', search: { error: outcome }, replace: true });
  }, [outcome, navigate]);

  return (
    <Panel title="Confirm your subscription">
      <p>
        You asked to receive e-mails from the Broadcast History Community. Press the button to confirm your address and start receiving
        them.
      </p>
      <p className="text-sm text-slate-600 dark:text-slate-400">If you did not ask for this, close this page: nothing will be sent.</p>
      {confirm.isError && !outcome && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {errorMessage(confirm.error, 'Failed to confirm your subscription. Please try again.')}
        </p>
      )}
      <div className="flex justify-end pt-2">
        <Button onPress={() => confirm.mutate()} isDisabled={confirm.isPending || confirm.isSuccess}>
          {confirm.isPending ? 'Confirming...' : 'Confirm subscription'}
        </Button>
      </div>
    </Panel>
  );
}
