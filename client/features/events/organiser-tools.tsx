/**
 * The event page's tools for its organizer and staff (docs/domain/events.md#organisers): who is coming (with the CSV
 * file), a message mailed to the attendees, and a private event's invite link.
 */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { DialogTrigger, Heading, Label, Radio, RadioGroup, TextArea, TextField } from 'react-aria-components';
import { DialogActions, ModalFrame } from '../../components/dialog-window';
import { Button } from '../../components/ui/button';
import { TextField as LabelledField } from '../../components/ui/text-field';
import { useToast } from '../../components/ui/toast';
import { ApiError, errorMessage } from '../../lib/api';
import { MemberLink } from '../../components/member-link';
import { QueryState } from '../../components/load-state';
import { Panel } from '../../components/panel';
import {
  MESSAGE_BODY_MAX,
  MESSAGE_SUBJECT_MAX,
  MESSAGES_PER_DAY,
  type MessageRecipients,
  type MyRsvpStatus,
} from '../../../shared/events/constants';
import type { Attendees } from '../../../shared/events/schemas';
import { attendeesCsvUrl, inviteLink, messageAttendees, useAttendees, type CalendarEvent } from './api';

const OVERLAY = 'fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-black/40 p-4 sm:items-center';
const PANEL = 'w-full max-w-lg rounded-xl bg-white p-5 shadow-xl dark:bg-slate-900';
const LINK_BUTTON =
  'inline-flex min-h-11 items-center rounded-md border border-slate-300 px-4 font-medium outline-none focus-visible:ring-2 focus-visible:ring-amber-500 dark:border-slate-600';

type Attendee = Attendees['items'][number];
const statusLine = (item: Attendee) =>
  ({ attending: 'Attending', waitlisted: `Waiting list #${item.position ?? ''}`.trim(), maybe: 'Maybe', not_attending: 'Not attending' })[
    item.status
  ];
const STATUS_TONE: Record<MyRsvpStatus, string> = {
  attending: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100',
  waitlisted: 'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100',
  maybe: 'bg-slate-100 text-slate-800 dark:bg-slate-700 dark:text-slate-100',
  not_attending: 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300',
};

export function OrganiserTools({ event }: { event: CalendarEvent }) {
  return (
    <Panel id="organiser-tools" title="Organizer tools">
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Only the organizer and staff see these.</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <AttendeesDialog event={event} />
        {!event.isCancelled && <MessageDialog event={event} />}
        {!event.isPublic && <InviteLink event={event} />}
      </div>
    </Panel>
  );
}

function AttendeesDialog({ event }: { event: CalendarEvent }) {
  const [open, setOpen] = useState(false);
  const list = useAttendees(event.id, open);
  const items = list.data?.items ?? [];
  const count = (status: MyRsvpStatus) => items.filter((item) => item.status === status).length;
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant="secondary">Attendees</Button>
      <ModalFrame overlayClassName={OVERLAY} className={PANEL}>
        {(close) => (
          <>
            <Heading slot="title" className="text-lg font-bold">
              Attendees
            </Heading>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{event.title}</p>
            <QueryState
              query={list}
              plain
              className="mt-4"
              loading="Loading who is coming..."
              failed="The list could not be loaded. Please try again."
            >
              {() =>
                items.length === 0 ? (
                  <p className="mt-4">Nobody has answered yet.</p>
                ) : (
                  <>
                    <p className="mt-3 text-sm font-medium">
                      {count('attending')} attending · {count('waitlisted')} waiting · {count('maybe')} maybe · {count('not_attending')} not
                      attending
                    </p>
                    <ul
                      aria-label="Who answered"
                      className="mt-2 max-h-[50vh] divide-y divide-slate-200 overflow-y-auto rounded-md border border-slate-200 dark:divide-slate-700 dark:border-slate-700"
                    >
                      {items.map((item) => (
                        <li key={item.member.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-3 py-2">
                          <span className="min-w-0 break-words">
                            <MemberLink id={item.member.id} name={item.member.name} />
                          </span>
                          <span className="flex items-center gap-2 text-sm">
                            <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_TONE[item.status]}`}>
                              {statusLine(item)}
                            </span>
                            <time dateTime={item.at} className="text-slate-600 dark:text-slate-400">
                              {new Date(item.at).toLocaleDateString(undefined, { month: 'short', day: 'numeric' })}
                            </time>
                          </span>
                        </li>
                      ))}
                    </ul>
                  </>
                )
              }
            </QueryState>
            <div className="mt-4 flex flex-wrap justify-end gap-2">
              <a href={attendeesCsvUrl(event.id)} download className={LINK_BUTTON}>
                Download CSV
              </a>
              <Button variant="ghost" onPress={close}>
                Close
              </Button>
            </div>
          </>
        )}
      </ModalFrame>
    </DialogTrigger>
  );
}

function MessageDialog({ event }: { event: CalendarEvent }) {
  const { toast } = useToast();
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [to, setTo] = useState<MessageRecipients>('attending');
  const send = useMutation({
    mutationFn: (message: { subject: string; body: string; to: MessageRecipients }) => messageAttendees(event.id, message),
  });
  // A field's message stays until that field is changed.
  const refusedFields = send.error instanceof ApiError ? send.error.fields : {};
  const sent = send.variables;
  const fields = {
    subject: sent?.subject === subject ? refusedFields.subject : undefined,
    body: sent?.body === body ? refusedFields.body : undefined,
  };
  const refused =
    send.error && !(send.error instanceof ApiError && send.error.status === 400)
      ? errorMessage(send.error, 'The message could not be sent. Please try again.')
      : null;
  const reset = () => {
    setSubject('');
    setBody('');
    setTo('attending');
    send.reset();
  };
  return (
    <DialogTrigger onOpenChange={(open) => open && reset()}>
      <Button variant="secondary">Message attendees</Button>
      <ModalFrame overlayClassName={OVERLAY} className={PANEL}>
        {(close) => (
          <form
            noValidate
            onSubmit={(submitted) => {
              submitted.preventDefault();
              if (send.isPending) return;
              send.mutate(
                { subject, body, to },
                {
                  onSuccess: (accepted) => {
                    toast({
                      title: 'Message sent',
                      description: `It is on its way to ${accepted.recipients} ${accepted.recipients === 1 ? 'person' : 'people'}. You can send ${accepted.remainingToday} more today.`,
                    });
                    close();
                  },
                },
              );
            }}
          >
            <Heading slot="title" className="text-lg font-bold">
              Message attendees
            </Heading>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              Each person gets it by e-mail, as plain text. At most {MESSAGES_PER_DAY} messages per event a day.
            </p>
            <div className="mt-4 space-y-4">
              <LabelledField
                label="Subject"
                value={subject}
                onChange={setSubject}
                maxLength={MESSAGE_SUBJECT_MAX}
                isRequired
                autoFocus
                error={fields.subject}
              />
              <TextField
                value={body}
                onChange={setBody}
                maxLength={MESSAGE_BODY_MAX}
                isRequired
                validationBehavior="aria"
                isInvalid={Boolean(fields.body)}
                className="flex flex-col gap-1"
              >
                <Label className="text-sm font-medium">Message</Label>
                <TextArea
                  rows={6}
                  className="rounded-md border border-slate-300 bg-white px-3 py-2 text-base outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/30 dark:border-slate-600 dark:bg-slate-900"
                />
                <span className="flex justify-between gap-2 text-xs">
                  <span className="text-red-600 dark:text-red-400">{fields.body}</span>
                  <span className="text-slate-600 dark:text-slate-400">
                    {body.length}/{MESSAGE_BODY_MAX}
                  </span>
                </span>
              </TextField>
              <RadioGroup
                value={to}
                onChange={(value) => setTo(value === 'attending+waitlisted' ? value : 'attending')}
                className="flex flex-col gap-1"
              >
                <Label className="text-sm font-medium">Send to</Label>
                {(
                  [
                    ['attending', `Attending (${event.attendeeCount})`],
                    ['attending+waitlisted', `Attending and the waiting list (${event.attendeeCount + event.waitlistCount})`],
                  ] as const
                ).map(([value, label]) => (
                  <Radio
                    key={value}
                    value={value}
                    className="group flex min-h-11 cursor-pointer items-center gap-2 rounded-md px-1 outline-none data-focus-visible:ring-2 data-focus-visible:ring-amber-500"
                  >
                    <span
                      aria-hidden="true"
                      className="h-4 w-4 shrink-0 rounded-full border-2 border-slate-500 group-data-selected:border-[5px] group-data-selected:border-brand-600 dark:group-data-selected:border-amber-accent"
                    />
                    {label}
                  </Radio>
                ))}
              </RadioGroup>
              {refused && (
                <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
                  {refused}
                </p>
              )}
            </div>
            <DialogActions
              className="mt-4"
              onCancel={close}
              isDisabled={send.isPending}
              confirmLabel={send.isPending ? 'Sending...' : 'Send message'}
            />
          </form>
        )}
      </ModalFrame>
    </DialogTrigger>
  );
}

/** Copies the private event's invite link; where the clipboard is refused, shows it to copy by hand. */
function InviteLink({ event }: { event: CalendarEvent }) {
  const { toast } = useToast();
  const [shown, setShown] = useState<string | null>(null);
  const copy = useMutation({
    mutationFn: async () => {
      const { url } = await inviteLink(event.id);
      setShown(url);
      await navigator.clipboard.writeText(url);
      return url;
    },
    onSuccess: () => toast({ title: 'Invite link copied', description: 'Members who open it can see this private event and RSVP.' }),
    onError: (error) =>
      toast({
        title: 'Copy failed',
        description: errorMessage(error, 'Select the link below and copy it yourself.'),
        variant: 'destructive',
      }),
  });
  return (
    <>
      <Button variant="secondary" onPress={() => copy.mutate()} isDisabled={copy.isPending}>
        Copy invite link
      </Button>
      {shown && (
        <div className="w-full min-w-0 basis-full">
          <label htmlFor={`invite-${event.id}`} className="text-sm font-medium">
            Invite link
          </label>
          <input
            id={`invite-${event.id}`}
            readOnly
            value={shown}
            onFocus={(focused) => focused.target.select()}
            className="mt-1 min-h-11 w-full rounded-md border border-slate-300 bg-slate-50 px-2 text-xs dark:border-slate-600 dark:bg-slate-800"
          />
        </div>
      )}
    </>
  );
}
