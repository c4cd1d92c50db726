/** Subscription Settings' "Event reminders": a switch, saved at once, for the e-mail a day before each event the member attends. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../components/ui/toast';
import { apiRequest, errorMessage } from '../../lib/api';
import { apiKey, getQuery } from '../../lib/query-keys';
import { LabelledSwitch } from '../../components/ui/switch';

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
