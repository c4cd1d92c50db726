/**
 * "Get updates by e-mail" as markup alone (docs/domain/subscriptions.md#guest-subscriptions): the landing page's, as
 * the server renders it and the browser hydrates it, and /subscribe's. Its state and its request are the client's
 * (client/components/guest-subscribe-form.tsx), handed in as props; without them (the server) it shows its first state.
 */
import type { FormEvent } from 'react';
import { FREQUENCIES, FREQUENCY_LABELS, SUBSCRIPTION_TYPES, SUBSCRIPTION_TYPE_LABELS } from '../subscriptions/constants';
import type { Frequency, SubscriptionType } from '../subscriptions/constants';

const field =
  'min-h-11 w-full rounded-md border border-white/30 bg-white/10 px-3 text-white placeholder:text-slate-300 focus:border-amber-300 focus:outline-none focus:ring-2 focus:ring-amber-300/40';
const option = 'bg-slate-900 text-white';

export interface SubscribeFormProps {
  /** Prefix of the fields' ids (one form per page). */
  id: string;
  className?: string;
  heading?: 'h1' | 'h2';
  email?: string;
  subscriptionType?: SubscriptionType;
  frequency?: Frequency;
  pending?: boolean;
  /** The server's answer once subscribed, or what went wrong (`emailInvalid`: about the address). */
  done?: string | null;
  error?: string | null;
  emailInvalid?: boolean;
  onEmail?: (email: string) => void;
  onSubscriptionType?: (type: SubscriptionType) => void;
  onFrequency?: (frequency: Frequency) => void;
  onSubmit?: () => void;
}

export function SubscribeFormView({
  id,
  className = 'mt-16',
  heading = 'h2',
  email = '',
  subscriptionType = 'all',
  frequency = 'weekly',
  pending = false,
  done = null,
  error = null,
  emailInvalid = false,
  onEmail,
  onSubscriptionType,
  onFrequency,
  onSubmit,
}: SubscribeFormProps) {
  const Heading = heading;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit?.();
  };
  return (
    <section aria-labelledby={`${id}-heading`} className={`${className} max-w-3xl rounded-xl bg-white/10 p-5 backdrop-blur`}>
      <Heading id={`${id}-heading`} className="text-lg font-semibold">
        Get updates by e-mail
      </Heading>
      <p className="mt-1 text-sm text-slate-200">
        No account needed. We send a confirmation link first, and every e-mail has a one-click unsubscribe.
      </p>
      {/* Sent before the page's code has taken over (a quick click on a slow phone), the form goes to /subscribe with
          what was typed, to be sent from there, instead of reloading this page empty. */}
      <form onSubmit={submit} action="/subscribe" method="get" className="mt-4 grid gap-3 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end">
        <div className="flex flex-col gap-1 text-sm font-medium">
          <label htmlFor={`${id}-email`}>E-mail address</label>
          <input
            id={`${id}-email`}
            name="email"
            type="email"
            required
            autoComplete="email"
            value={email}
            onChange={(e) => onEmail?.(e.target.value)}
            aria-invalid={emailInvalid ? true : undefined}
            className={field}
          />
        </div>
        <div className="flex flex-col gap-1 text-sm font-medium">
          <label htmlFor={`${id}-type`}>Updates</label>
          <select
            id={`${id}-type`}
            name="type"
            value={subscriptionType}
            onChange={(e) => onSubscriptionType?.(e.target.value as SubscriptionType)}
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
          <select
            id={`${id}-frequency`}
            name="frequency"
            value={frequency}
            onChange={(e) => onFrequency?.(e.target.value as Frequency)}
            className={field}
          >
            {FREQUENCIES.map((value) => (
              <option key={value} value={value} className={option}>
                {FREQUENCY_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          disabled={pending}
          className="min-h-11 rounded-md bg-amber-400 px-5 font-semibold text-slate-950 hover:bg-amber-300 disabled:opacity-60"
        >
          {pending ? 'Sending...' : 'Subscribe'}
        </button>
      </form>
      {done !== null && (
        <p role="status" className="mt-3 font-medium text-amber-200">
          {done}
        </p>
      )}
      {error !== null && (
        <p role="alert" className="mt-3 font-medium text-red-200">
          {error}
        </p>
      )}
    </section>
  );
}
