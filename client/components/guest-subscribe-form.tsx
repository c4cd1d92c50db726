/**
 * "Get updates by e-mail", on the landing page and /subscribe. A visitor's
 * address gets a confirmation link first (double opt-in); a signed-in member's
 * own address becomes their account's subscription (docs/domain/subscriptions.md#guest-subscriptions).
 * The server answers with what happens next. Plain form controls, so the landing page stays light.
 */
import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { ApiError, answer, api, errorMessage } from '../lib/api';
import type { GuestSubscribe } from '../../shared/subscriptions/schemas';
import {
  FREQUENCIES,
  FREQUENCY_LABELS,
  SUBSCRIPTION_TYPES,
  SUBSCRIPTION_TYPE_LABELS,
  type Frequency,
  type SubscriptionType,
} from '../../shared/subscriptions/constants';

const subscribeAsGuest = (request: GuestSubscribe) => answer(api.POST('/api/subscribe', { body: request }));

const field =
  'min-h-11 w-full rounded-md border border-white/30 bg-white/10 px-3 text-white placeholder:text-slate-300 focus:border-amber-300 focus:outline-none focus:ring-2 focus:ring-amber-300/40';
const option = 'bg-slate-900 text-white';

export function GuestSubscribeForm({
  initialEmail = '',
  className = 'mt-16',
  heading = 'h2',
}: {
  initialEmail?: string;
  className?: string;
  heading?: 'h1' | 'h2';
}) {
  const Heading = heading;
  const id = useId();
  const [email, setEmail] = useState(initialEmail);
  const [subscriptionType, setSubscriptionType] = useState<SubscriptionType>('all');
  const [frequency, setFrequency] = useState<Frequency>('weekly');
  const subscribe = useMutation({
    mutationFn: () => subscribeAsGuest({ email: email.trim(), subscriptionType, frequency }),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    subscribe.mutate();
  };
  const emailError = subscribe.error instanceof ApiError ? subscribe.error.fields.email : undefined;
  return (
    <section aria-labelledby="guest-subscribe" className={`${className} max-w-3xl rounded-xl bg-white/10 p-5 backdrop-blur`}>
      <Heading id="guest-subscribe" className="text-lg font-semibold">
        Get updates by e-mail
      </Heading>
      <p className="mt-1 text-sm text-slate-200">
        No account needed. We send a confirmation link first, and every e-mail has a one-click unsubscribe.
      </p>
      <form onSubmit={onSubmit} className="mt-4 grid gap-3 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end">
        <div className="flex flex-col gap-1 text-sm font-medium">
          <label htmlFor={`${id}-email`}>E-mail address</label>
          <input
            id={`${id}-email`}
            type="email"
            required
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={emailError ? true : undefined}
            className={field}
          />
        </div>
        <div className="flex flex-col gap-1 text-sm font-medium">
          <label htmlFor={`${id}-type`}>Updates</label>
          <select
            id={`${id}-type`}
            value={subscriptionType}
            onChange={(e) => setSubscriptionType(e.target.value as SubscriptionType)}
            className={field}
          >
            {SUBSCRIPTION_TYPES.map((type) => (
              <option key={type} value={type} className={option}>
                {SUBSCRIPTION_TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1 text-sm font-medium">
          <label htmlFor={`${id}-frequency`}>How often</label>
          <select id={`${id}-frequency`} value={frequency} onChange={(e) => setFrequency(e.target.value as Frequency)} className={field}>
            {FREQUENCIES.map((value) => (
              <option key={value} value={value} className={option}>
                {FREQUENCY_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          disabled={subscribe.isPending}
          className="min-h-11 rounded-md bg-amber-400 px-5 font-semibold text-slate-950 hover:bg-amber-300 disabled:opacity-60"
        >
          {subscribe.isPending ? 'Sending...' : 'Subscribe'}
        </button>
      </form>
      {subscribe.isSuccess && (
        <p role="status" className="mt-3 font-medium text-amber-200">
          {subscribe.data.message}
        </p>
      )}
      {subscribe.isError && (
        <p role="alert" className="mt-3 font-medium text-red-200">
          {emailError ?? errorMessage(subscribe.error, 'Your subscription could not be started. Please try again in a moment.')}
        </p>
      )}
    </section>
  );
}
