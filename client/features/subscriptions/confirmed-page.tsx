/**
 * Where a guest's confirmation link lands (/subscribe/confirmed): the server
 * confirms the subscription and redirects here, adding `?error=link` for an
 * unknown or expired link and `?error=ended` for a subscription already ended.
 */
import { Link, useSearch } from '@tanstack/react-router';
import { Panel } from './panel';

export function SubscriptionConfirmedPage() {
  const { error } = useSearch({ from: '/subscribe/confirmed' });
  const home = (
    <p>
      <Link to="/" className="font-medium text-brand-600 underline dark:text-amber-accent">
        Go to the community home page
      </Link>
    </p>
  );
  if (error === 'link')
    return (
      <Panel title="Confirmation link not valid" tone="error">
        <p>This link is invalid or has expired. Subscribe again to get a new confirmation e-mail.</p>
        <p>If the problem continues, please contact support.</p>
        {home}
      </Panel>
    );
  if (error === 'ended')
    return (
      <Panel title="Subscription ended" tone="error">
        <p>This subscription has ended. Subscribe again to receive e-mails.</p>
        {home}
      </Panel>
    );
  return (
    <Panel title="Subscription confirmed" tone="success">
      <p>Thank you. Your e-mail address is confirmed, and our updates will start arriving at the frequency you chose.</p>
      <p>Every e-mail has a link to unsubscribe with one click.</p>
      {home}
    </Panel>
  );
}
