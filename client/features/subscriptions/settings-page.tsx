/**
 * Subscription settings (/subscription-settings): the member's own e-mail
 * subscriptions. Edits stay local until Save, which makes exactly the calls
 * docs/domain/subscriptions.md#settings-page lists (see settings-plan.ts); a failed call keeps the edits. The
 * page follows changes made elsewhere (`subscriptions:changed`) without losing
 * the edits (rebaseEdits).
 */
import { useState } from 'react';
import { Button as AriaButton, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api';
import { useCurrentUser } from '../../lib/current-user';
import { FREQUENCIES, FREQUENCY_LABELS, SUBSCRIPTION_TYPES, SUBSCRIPTION_TYPE_LABELS } from '../../../shared/subscriptions/constants';
import type { Frequency, SubscriptionType } from '../../../shared/subscriptions/constants';
import { useSaveSubscriptionSettings, useSubscriptions } from './api';
import { EventReminders } from './event-reminders';
import {
  activeSubscriptions,
  rebaseEdits,
  savedChoices,
  saveSteps,
  shownChoices,
  type Choice,
  type Edits,
  type SaveStep,
  type Subscription,
} from './settings-plan';
import { LabelledSwitch } from '../../components/ui/switch';

const TYPE_DESCRIPTIONS: Record<SubscriptionType, string> = {
  blog_posts: 'New articles from the community blog.',
  newsfeed: 'Approved posts from the community newsfeed.',
  all: 'Everything: blog posts and newsfeed posts together.',
};

const card = 'rounded-xl border border-slate-200 bg-white p-4 md:p-6 dark:border-slate-800 dark:bg-slate-900';

const FAILURE_TITLES: Record<SaveStep['kind'], string> = { create: 'Creation failed', update: 'Update failed', remove: 'Removal failed' };

/** The toast for each outcome of a Save step, in the spec's words (§8). */
function stepToast(step: SaveStep, error: unknown) {
  const label = SUBSCRIPTION_TYPE_LABELS[step.kind === 'create' ? step.subscriptionType : step.subscription.subscriptionType];
  if (error)
    return {
      title: FAILURE_TITLES[step.kind],
      description: errorMessage(error, `Failed to ${step.kind} the ${label} subscription.`),
      variant: 'destructive' as const,
    };
  switch (step.kind) {
    case 'create':
      return { title: 'Subscription created', description: `You will receive ${label} e-mails (${FREQUENCY_LABELS[step.frequency]}).` };
    case 'update':
      return { title: 'Settings updated', description: `Your ${label} subscription has been updated.` };
    case 'remove':
      return { title: 'Subscription removed', description: `You will no longer receive ${label} e-mails.` };
  }
}

function FrequencySelect({
  type,
  value,
  isDisabled,
  onChange,
}: {
  type: SubscriptionType;
  value: Frequency;
  isDisabled: boolean;
  onChange: (frequency: Frequency) => void;
}) {
  return (
    <Select value={value} onChange={(key) => key && onChange(key as Frequency)} isDisabled={isDisabled} className="flex flex-col gap-1">
      <Label className="text-sm font-medium">{SUBSCRIPTION_TYPE_LABELS[type]} frequency</Label>
      <AriaButton className="flex min-h-11 w-48 items-center justify-between rounded-md border border-slate-300 bg-white px-3 text-left text-sm outline-none focus-visible:ring-2 focus-visible:ring-amber-500 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-600 dark:bg-slate-900">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </AriaButton>
      <Popover className="w-48 rounded-md border border-slate-200 bg-white shadow-lg dark:border-slate-700 dark:bg-slate-900">
        <ListBox className="p-1 outline-none">
          {FREQUENCIES.map((frequency) => (
            <ListBoxItem
              key={frequency}
              id={frequency}
              className="flex min-h-11 cursor-default items-center rounded px-3 text-sm outline-none data-[focused]:bg-slate-100 data-[selected]:font-semibold dark:data-[focused]:bg-slate-800"
            >
              {FREQUENCY_LABELS[frequency]}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}

function SubscriptionRow({ type, choice, onChange }: { type: SubscriptionType; choice: Choice; onChange: (choice: Choice) => void }) {
  return (
    <li className="flex flex-wrap items-end justify-between gap-4 py-4 first:pt-0 last:pb-0">
      <LabelledSwitch
        label={SUBSCRIPTION_TYPE_LABELS[type]}
        description={TYPE_DESCRIPTIONS[type]}
        isSelected={choice.enabled}
        onChange={(enabled) => onChange({ ...choice, enabled })}
        className="flex-1 basis-64"
      />
      <FrequencySelect
        type={type}
        value={choice.frequency}
        isDisabled={!choice.enabled}
        onChange={(frequency) => onChange({ ...choice, frequency })}
      />
    </li>
  );
}

const sinceDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

export function SubscriptionSettingsPage() {
  const { data: user } = useCurrentUser();
  const subscriptions = useSubscriptions();
  const { toast } = useToast();
  const [edits, setEdits] = useState<Edits>({});
  /** The server's list the edits were last carried over; refetched on `subscriptions:changed` and after a Save. */
  const [seen, setSeen] = useState<readonly Subscription[] | undefined>(undefined);
  const save = useSaveSubscriptionSettings((step, error) => toast(stepToast(step, error)));

  if (subscriptions.isPending) return <Spinner label="Loading subscription settings" />;
  // A failed refetch keeps the list it had, so the page (and the member's edits) stays; only a first load fails here.
  if (subscriptions.data === undefined)
    return (
      <div>
        <PageHeader title="Subscription Settings" />
        <p
          role="alert"
          className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        >
          Failed to load subscription settings. Please refresh the page and try again.
        </p>
      </div>
    );

  const list = subscriptions.data;
  if (list !== seen) {
    // The server's state moved (a change elsewhere, or this page's own Save): carry the unsaved edits over it.
    if (seen) setEdits((current) => rebaseEdits(current, savedChoices(seen), savedChoices(list)));
    setSeen(list);
  }
  const choices = shownChoices(list, edits);
  const steps = saveSteps(list, edits);
  const active = activeSubscriptions(list);
  const onSave = () =>
    save.mutate(steps, {
      // Only a complete save clears the edits; after a failure the refetched list drops the steps that did succeed.
      onSuccess: ({ failed }) => !failed && setEdits({}),
    });

  return (
    <div className="max-w-3xl space-y-6">
      <PageHeader title="Subscription Settings" description="Choose which e-mails you receive from the community and how often." />

      <section aria-labelledby="primary-email" className={card}>
        <h2 id="primary-email" className="font-semibold">
          Primary e-mail
        </h2>
        <p className="mt-1 break-all text-slate-700 dark:text-slate-300">{user?.email}</p>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Every subscription below is sent to this address.</p>
      </section>

      <section aria-labelledby="email-preferences" className={card}>
        <h2 id="email-preferences" className="mb-4 font-semibold">
          E-mail preferences
        </h2>
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {SUBSCRIPTION_TYPES.map((type) => (
            <SubscriptionRow
              key={type}
              type={type}
              choice={choices[type]}
              onChange={(choice) => setEdits((current) => ({ ...current, [type]: choice }))}
            />
          ))}
        </ul>
      </section>

      {steps.length > 0 && (
        <section
          aria-labelledby="unsaved-changes"
          className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950"
        >
          <div>
            <h2 id="unsaved-changes" className="font-semibold">
              You have unsaved changes
            </h2>
            <p className="text-sm text-slate-700 dark:text-slate-300">Save them to update your subscriptions.</p>
          </div>
          <Button onPress={onSave} isDisabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save Changes'}
          </Button>
        </section>
      )}

      <EventReminders className={card} />

      <section aria-labelledby="active-subscriptions" className={card}>
        <h2 id="active-subscriptions" className="font-semibold">
          Active Subscriptions
        </h2>
        {active.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">You have no active subscriptions.</p>
        ) : (
          <ul className="mt-3 space-y-2">
            {active.map((subscription) => (
              <li
                key={subscription.id}
                aria-label={SUBSCRIPTION_TYPE_LABELS[subscription.subscriptionType]}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-slate-50 p-3 dark:bg-slate-800"
              >
                <span className="flex items-center gap-2">
                  <span className="font-medium">{SUBSCRIPTION_TYPE_LABELS[subscription.subscriptionType]}</span>
                  <Badge variant="secondary">{FREQUENCY_LABELS[subscription.frequency]}</Badge>
                </span>
                <span className="text-sm text-slate-600 dark:text-slate-400">
                  Since <time dateTime={subscription.createdAt}>{sinceDate(subscription.createdAt)}</time>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
