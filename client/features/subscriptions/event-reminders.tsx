/** Subscription Settings' "Event reminders": a switch, saved at once, for the e-mail a day before each event the member attends. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../components/ui/toast';
import { answer, api, errorMessage } from '../../lib/api';
import { apiQuery, operationKey } from '../../lib/query-keys';
import { LabelledSwitch } from '../../components/ui/switch';

export function EventReminders({ className }: { className: string }) {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const reminders = useQuery(apiQuery('/api/me/event-reminders'));
  const save = useMutation({
    mutationFn: (enabled: boolean) => answer(api.PUT('/api/me/event-reminders', { body: { enabled } })),
    onSuccess: (saved) => {
      queryClient.setQueryData(operationKey('/api/me/event-reminders'), saved);
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
        <LabelledSwitch
          label="Remind me of events"
          description="An e-mail a day before each event you attend."
          isSelected={save.isPending ? save.variables : reminders.data.enabled}
          isDisabled={save.isPending}
          onChange={(enabled) => save.mutate(enabled)}
        />
      )}
    </section>
  );
}
