/**
 * "Get updates by e-mail", on the landing page and /subscribe. A visitor's
 * address gets a confirmation link first (double opt-in); a signed-in member's
 * own address becomes their account's subscription (docs/domain/subscriptions.md#guest-subscriptions).
 * The server answers with what happens next. Its markup is shared with the server's landing page
 * (shared/public-pages/subscribe-form.tsx); here are its state and its request.
 */
import { useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { ApiError, answer, api, errorMessage } from '../lib/api';
import type { GuestSubscribe } from '../../shared/subscriptions/schemas';
import type { Frequency, SubscriptionType } from '../../shared/subscriptions/constants';
import { SubscribeFormView } from '../../shared/public-pages/subscribe-form';

const subscribeAsGuest = (request: GuestSubscribe) => answer(api.POST('/api/subscribe', { body: request }));

export function GuestSubscribeForm({
  id,
  initialEmail = '',
  initialSubscriptionType = 'all',
  initialFrequency = 'weekly',
  className = 'mt-16',
  heading = 'h2',
}: {
  /** The fields' ids' prefix: the landing page's is fixed, so the server's HTML and the hydrated form agree. */
  id?: string;
  initialEmail?: string;
  initialSubscriptionType?: SubscriptionType;
  initialFrequency?: Frequency;
  className?: string;
  heading?: 'h1' | 'h2';
}) {
  const generated = useId();
  const [email, setEmail] = useState(initialEmail);
  const [subscriptionType, setSubscriptionType] = useState<SubscriptionType>(initialSubscriptionType);
  const [frequency, setFrequency] = useState<Frequency>(initialFrequency);
  const subscribe = useMutation({
    mutationFn: () => subscribeAsGuest({ email: email.trim(), subscriptionType, frequency }),
  });
  const emailError = subscribe.error instanceof ApiError ? subscribe.error.fields.email : undefined;
  return (
    <SubscribeFormView
      id={id ?? generated}
      className={className}
      heading={heading}
      email={email}
      subscriptionType={subscriptionType}
      frequency={frequency}
      pending={subscribe.isPending}
      done={subscribe.isSuccess ? subscribe.data.message : null}
      error={
        subscribe.isError
          ? (emailError ?? errorMessage(subscribe.error, 'Your subscription could not be started. Please try again in a moment.'))
          : null
      }
      emailInvalid={Boolean(emailError)}
      onEmail={setEmail}
      onSubscriptionType={setSubscriptionType}
      onFrequency={setFrequency}
      onSubmit={() => subscribe.mutate()}
    />
  );
}
