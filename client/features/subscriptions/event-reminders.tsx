/** Subscription Settings' "Event reminders": a switch, saved at once, for the e-mail a day before each event the member attends. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Switch } from 'react-aria-components';
import { useToast } from '../../components/ui/toast';
import { apiRequest, errorMessage } from '../../lib/api';
import { apiKey, getQuery } from '../../lib/query-keys';

const REMINDERS = '/api/me/event-reminders';
type Reminders = { enabled: boolean };

export function EventReminders({ className }: { className: string }) {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const reminders = useQuery(getQuery<Reminders>(REMINDERS));
  const save = useMutation({
    mutationFn: (enabled: boolean) => apiRequest<Reminders>('PUT', REMINDERS, { enabled }),
    onSuccess: (saved) => {
      queryClient.setQueryData(apiKey(REMINDERS), saved);
      toast({ title: saved.enabled ? 'Event reminders on' : 'Event reminders off' });
    },
    onError: (error) => toast({ title: 'Update failed', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <section aria-labelledby="event-reminders" className={className}>
      <h2 id="event-reminders" className="mb-3 font-semibold">
        Event reminders
      </h2>
      {reminders.isPending ? (
        <p role="status">Loading...</p>
      ) : reminders.isError ? (
        <p role="alert">Your reminder setting could not be loaded.</p>
      ) : (
        <Switch isSelected={save.isPending ? save.variables : reminders.data.enabled} isDisabled={save.isPending} onChange={(enabled) => save.mutate(enabled)} className="group flex min-h-11 cursor-pointer items-center gap-3 outline-none">
          <span
            aria-hidden="true"
            className="flex h-6 w-11 shrink-0 items-center rounded-full bg-slate-300 px-0.5 transition-colors group-data-[selected]:bg-brand-600 group-data-[focus-visible]:ring-2 group-data-[focus-visible]:ring-amber-500 dark:bg-slate-600 dark:group-data-[selected]:bg-amber-accent"
          >
            <span className="size-5 rounded-full bg-white shadow transition-transform group-data-[selected]:translate-x-5" />
          </span>
          <span className="min-w-0">
            <span className="block font-medium">Remind me of events</span>
            <span className="block text-sm text-slate-600 dark:text-slate-400">An e-mail a day before each event you attend.</span>
          </span>
        </Switch>
      )}
    </section>
  );
}
