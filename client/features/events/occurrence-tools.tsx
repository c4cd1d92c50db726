/**
 * One date of a recurring event, cancelled or moved alone (docs/domain/events.md, "Recurring events"): its organiser
 * and staff get "Cancel this date" (an optional reason) and "Move this date" (a new start and end, prefilled with the
 * date's own). Each opens a window over the event's; the server's refusal (a past or cancelled date, a start another
 * date has) is shown in it, and the window stays open.
 */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { DialogActions, DialogWindow } from '../../components/dialog-window';
import { ReasonField } from '../../components/reason-dialog';
import { Button } from '../../components/ui/button';
import { useToast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api';
import { cancelOccurrence, moveOccurrence, useRefreshEvents, useSiteTimeZone, type CalendarEvent } from './api';
import { fromFormValue, toFormValue } from './event-form';

const field = 'min-h-11 w-full rounded-md border border-slate-300 bg-white px-3 dark:border-slate-600 dark:bg-slate-900';
const refusal = 'mt-3 rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200';

/** The two actions, for a date of a series that is neither cancelled nor past; nothing for anything else. */
export function OccurrenceTools({ event, dateLine }: { event: CalendarEvent; dateLine: string }) {
  const [open, setOpen] = useState<'cancel' | 'move' | null>(null);
  const occurrence = event.occurrenceStart;
  if (!event.isRecurring || !occurrence || event.isCancelled || new Date(event.startDate).getTime() <= Date.now()) return null;
  const close = () => setOpen(null);
  return (
    <>
      <Button variant="secondary" onPress={() => setOpen('move')}>
        Move this date
      </Button>
      <Button variant="secondary" onPress={() => setOpen('cancel')}>
        Cancel this date
      </Button>
      {open === 'cancel' && <CancelDate event={event} occurrence={occurrence} dateLine={dateLine} onClose={close} />}
      {open === 'move' && <MoveDate event={event} occurrence={occurrence} dateLine={dateLine} onClose={close} />}
    </>
  );
}

interface DateDialogProps {
  event: CalendarEvent;
  occurrence: string;
  dateLine: string;
  onClose: () => void;
}

function CancelDate({ event, occurrence, dateLine, onClose }: DateDialogProps) {
  const [reason, setReason] = useState('');
  const refresh = useRefreshEvents();
  const { toast } = useToast();
  const cancel = useMutation({
    mutationFn: () => cancelOccurrence(event.id, occurrence, reason.trim() || undefined),
    onSuccess: async () => {
      await refresh();
      toast({ title: 'Date cancelled', description: 'It stays on the calendar as cancelled; the other dates are unchanged.' });
      onClose();
    },
  });
  return (
    <DialogWindow title="Cancel this date?" role="alertdialog" onClose={onClose}>
      {(close) => (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!cancel.isPending) cancel.mutate();
          }}
        >
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {event.title}, {dateLine}. Only this date is cancelled: it stays on the calendar as cancelled and takes no more RSVPs. Those
            attending are told, with your reason.
          </p>
          <ReasonField value={reason} onChange={setReason} label="Reason" />
          {cancel.isError && (
            <p role="alert" className={refusal}>
              {errorMessage(cancel.error, 'The date could not be cancelled.')}
            </p>
          )}
          <DialogActions
            className="mt-4"
            onCancel={close}
            destructive
            isDisabled={cancel.isPending}
            confirmLabel={cancel.isPending ? 'Cancelling...' : 'Cancel the date'}
          />
        </form>
      )}
    </DialogWindow>
  );
}

function MoveDate({ event, occurrence, dateLine, onClose }: DateDialogProps) {
  const [startDate, setStartDate] = useState(() => toFormValue(event.startDate, event.allDay));
  const [endDate, setEndDate] = useState(() => toFormValue(event.endDate, event.allDay));
  const refresh = useRefreshEvents();
  const { toast } = useToast();
  const move = useMutation({
    mutationFn: () => moveOccurrence(event.id, occurrence, fromFormValue(startDate), fromFormValue(endDate)),
    onSuccess: async () => {
      await refresh();
      toast({ title: 'Date moved', description: 'Those attending are told of the new time; the other dates are unchanged.' });
      onClose();
    },
  });
  const type = event.allDay ? 'date' : 'datetime-local';
  // The fields read the reader's clock, as the event form's do; the site's zone may differ.
  const siteZone = useSiteTimeZone();
  const reader = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <DialogWindow title="Move this date" onClose={onClose}>
      {(close) => (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!move.isPending) move.mutate();
          }}
        >
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {event.title}, now {dateLine}. Only this date moves; the series keeps its other dates.
          </p>
          <div className="mt-4 grid gap-3">
            <label className="block text-sm">
              Start
              <input type={type} required autoFocus className={field} value={startDate} onChange={(e) => setStartDate(e.target.value)} />
            </label>
            <label className="block text-sm">
              End
              <input type={type} required className={field} value={endDate} onChange={(e) => setEndDate(e.target.value)} />
            </label>
          </div>
          {reader !== siteZone && (
            <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">Times on your own clock ({reader}), as in the event form.</p>
          )}
          {move.isError && (
            <p role="alert" className={refusal}>
              {errorMessage(move.error, 'The date could not be moved.')}
            </p>
          )}
          <DialogActions
            className="mt-4"
            onCancel={close}
            isDisabled={move.isPending || !startDate || !endDate}
            confirmLabel={move.isPending ? 'Moving...' : 'Move the date'}
          />
        </form>
      )}
    </DialogWindow>
  );
}
