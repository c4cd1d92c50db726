/** The event form (create and edit), validated with the same schema as the server. */
import { useCallback, useEffect, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import * as v from 'valibot';
import { CoverImagePicker } from '../../components/cover-image-picker';
import { Button } from '../../components/ui/button';
import { useToast } from '../../components/ui/toast';
import { ApiError, errorMessage } from '../../lib/api';
import { isStaff, useCurrentUser } from '../../lib/current-user';
import { EVENT_TYPES, EVENT_TYPE_LABELS } from '../../../shared/events/constants';
import { defaultEndDate } from '../../../shared/events/dates';
import { EventSchema } from '../../../shared/events/schemas';
import { MAX_TAGS_PER_ITEM, TAG_MAX_LENGTH } from '../../../shared/feed/constants';
import { TagInput, useTagEntry } from '../../components/tag-input';
import type { Media } from '../../../shared/media/schemas';
import { RepeatControl } from './repeat-control';
import { moderateEvent, saveEvent, setFeatured, uploadMedia, useRefreshEvents, type CalendarEvent, type EventBody } from './api';

const field = 'min-h-11 w-full rounded-md border border-slate-300 bg-white px-3 dark:border-slate-600 dark:bg-slate-900';

/**
 * The form's date format: year-month-day "T" hours:minutes on the reader's wall clock,
 * or the bare date of an all-day event, which is a calendar date kept in UTC (shared/events/dates.ts).
 */
export const toFormValue = (iso: string, allDay: boolean) => {
  if (!iso) return '';
  if (allDay) return iso.slice(0, 10);
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
export const fromFormValue = (value: string) => {
  if (!value) return '';
  const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  // An unreadable value goes to the schema as it is, which answers with the spec's message.
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
};

type FormDates = { allDay: boolean; startDate: string; endDate: string };

/**
 * The form's dates when "All day" is switched: on, each keeps its date; off, each keeps its date too, the start at
 * 09:00 and the end an hour later on the same day, or at 17:00 on a later one (an empty date stays empty).
 */
export function switchAllDay(dates: FormDates, allDay: boolean): FormDates {
  if (allDay) return { allDay, startDate: dates.startDate.slice(0, 10), endDate: dates.endDate.slice(0, 10) };
  if (dates.startDate.length > 10) return { ...dates, allDay };
  const startDate = dates.startDate ? `${dates.startDate}T09:00` : '';
  const sameDay = !dates.endDate || dates.endDate === dates.startDate;
  const endDate = sameDay ? (startDate ? defaultEndDate(startDate) : '') : `${dates.endDate}T17:00`;
  return { allDay, startDate, endDate };
}

/**
 * What the form sends: its fields with the dates as instants, an empty limit as none, and the cover's upload
 * (null for none: the form is sent whole, so an edit without one takes it away).
 */
type PlaceFields = { street: string; city: string; region: string; postalCode: string; country: string; lat: string; lon: string };
/** The place's form fields as the event has them: its address's parts and its coordinates, '' for none. */
const placeFields = (event?: CalendarEvent): PlaceFields => ({
  street: event?.address?.street ?? '',
  city: event?.address?.city ?? '',
  region: event?.address?.region ?? '',
  postalCode: event?.address?.postalCode ?? '',
  country: event?.address?.country ?? '',
  lat: event?.geo ? String(event.geo.lat) : '',
  lon: event?.geo ? String(event.geo.lon) : '',
});
const formBody = <F extends FormDates & PlaceFields & { maxAttendees: string }>(
  { street, city, region, postalCode, country, lat, lon, ...form }: F,
  cover: Media | null,
) => ({
  ...form,
  address: { street, city, region, postalCode, country },
  // Coordinates are both given or none: one alone is an error the schema names.
  geo: lat.trim() || lon.trim() ? { lat, lon } : null,
  startDate: fromFormValue(form.startDate),
  endDate: fromFormValue(form.endDate),
  maxAttendees: form.maxAttendees || null,
  mediaId: cover?.id ?? null,
});
const fieldErrors = (issues: v.BaseIssue<unknown>[]) =>
  Object.fromEntries(issues.map((issue) => [v.getDotPath(issue) ?? 'form', issue.message]));

export function EventForm({ event, onDone }: { event?: CalendarEvent; onDone: () => void }) {
  const { data: user } = useCurrentUser();
  const refresh = useRefreshEvents();
  const { toast } = useToast();
  const editing = Boolean(event);
  const [form, setForm] = useState({
    title: event?.title ?? '',
    description: event?.description ?? '',
    eventType: event?.eventType ?? 'other',
    location: event?.location ?? '',
    isVirtual: event?.isVirtual ?? false,
    virtualLink: event?.virtualLink ?? '',
    startDate: event ? toFormValue(event.startDate, event.allDay) : '',
    endDate: event ? toFormValue(event.endDate, event.allDay) : '',
    allDay: event?.allDay ?? false,
    isRecurring: event?.isRecurring ?? false,
    recurrenceRule: event?.recurrenceRule ?? '',
    maxAttendees: event?.maxAttendees ? String(event.maxAttendees) : '',
    isPublic: event?.isPublic ?? true,
    waitlist: event?.waitlist ?? true,
    tags: event?.tags ?? ([] as string[]),
    ...placeFields(event),
  });
  const staff = isStaff(user?.role);
  // Staff events are approved when created; a member's pending event waits until staff tick it here or approve it.
  const [moderation, setModeration] = useState({ featured: event?.isFeatured ?? false, approved: event ? event.isApproved : true });
  const [cover, setCover] = useState<Media | null>(event?.media ?? null);
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const media = await uploadMedia(file);
      if (media.kind !== 'image') throw new Error('Choose a picture: a JPEG, PNG, WebP or HEIC image.');
      return media;
    },
    onSuccess: (media) => setCover(media),
    onError: (error) =>
      toast({
        title: 'Could not upload the picture',
        description: error instanceof ApiError ? errorMessage(error, 'Please try again.') : error.message,
        variant: 'destructive',
      }),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm((current) => ({ ...current, [key]: value }));
  const setRule = useCallback((recurrenceRule: string) => setForm((current) => ({ ...current, recurrenceRule })), []);

  const save = useMutation({
    mutationFn: async (body: EventBody) => {
      let saved = await saveEvent(body, editing ? event!.id : undefined);
      // Staff settings are commands of their own, sent once the event is saved.
      if (staff && moderation.approved && !saved.isApproved) saved = await moderateEvent(saved.id, 'approve');
      if (staff && moderation.featured !== saved.isFeatured) saved = await setFeatured(saved.id, moderation.featured);
      return saved;
    },
    onSuccess: (saved) => {
      // A member's edit of an approved event waits for staff as a revision (the server decides; this only says so).
      const backToReview = editing && Boolean(saved.pendingRevision) && !staff;
      const updated = backToReview
        ? 'Your changes will show once staff approve them. Until then everyone sees the event as it was.'
        : 'Your event has been updated successfully.';
      toast({
        title: editing ? 'Event Updated' : 'Event Created',
        description: editing ? updated : 'Your event has been created successfully.',
      });
      void refresh();
      onDone();
    },
    onError: (error) => {
      if (error instanceof ApiError) setErrors(error.fields);
      toast({
        title: 'Error',
        description:
          error instanceof ApiError && error.serverMessage
            ? error.serverMessage
            : editing
              ? 'Failed to update event'
              : 'Failed to create event',
        variant: 'destructive',
      });
    },
  });

  // Once errors show, each goes as soon as its field is right (a new one waits for the next submit).
  useEffect(() => {
    setErrors((shown) => {
      const keys = Object.keys(shown);
      if (keys.length === 0) return shown;
      const result = v.safeParse(EventSchema, formBody(form, cover));
      const now: Record<string, string> = result.success ? {} : fieldErrors(result.issues);
      const still = keys.filter((key) => key in now);
      return still.length === keys.length ? shown : Object.fromEntries(still.map((key) => [key, now[key]!]));
    });
  }, [form, cover]);

  const submit = () => {
    const result = v.safeParse(EventSchema, formBody(form, cover));
    if (!result.success) {
      setErrors(fieldErrors(result.issues));
      return;
    }
    setErrors({});
    save.mutate(result.output);
  };

  const setStart = (value: string) => {
    setForm((current) => {
      if (current.endDate || !value) return { ...current, startDate: value };
      return { ...current, startDate: value, endDate: defaultEndDate(value) };
    });
  };

  // Event tags are trimmed only (spec 2 "Event form"); a refused one stays in the input, with the reason under it.
  const tagEntry = useTagEntry(
    form.tags,
    (tags) => set('tags', tags),
    (typed) => typed.trim(),
  );
  const error = (key: string) => errors[key] && <span className="text-sm text-red-600 dark:text-red-400">{errors[key]}</span>;
  const dateType = form.allDay ? 'date' : 'datetime-local';

  return (
    <form
      noValidate
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <fieldset className="space-y-3">
        <legend className="font-semibold">Basic Information</legend>
        <label className="block text-sm">
          Title
          <input className={field} value={form.title} onChange={(e) => set('title', e.target.value)} />
        </label>
        {error('title')}
        <label className="block text-sm">
          Description
          <textarea rows={3} className={`${field} py-2`} value={form.description} onChange={(e) => set('description', e.target.value)} />
        </label>
        <CoverImagePicker
          cover={cover}
          onChoose={(files) => files?.[0] && upload.mutate(files[0])}
          onRemove={() => setCover(null)}
          uploading={upload.isPending}
          error={errors.mediaId}
        />
        <label className="block text-sm">
          Event type
          <select className={field} value={form.eventType} onChange={(e) => set('eventType', e.target.value as typeof form.eventType)}>
            {EVENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {EVENT_TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
      <fieldset className="space-y-3">
        <legend className="font-semibold">Date & Time</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={form.allDay} onChange={(e) => setForm((c) => ({ ...c, ...switchAllDay(c, e.target.checked) }))} />
          All day
        </label>
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <label className="block text-sm">
              Start
              <input type={dateType} className={field} value={form.startDate} onChange={(e) => setStart(e.target.value)} />
            </label>
            {error('startDate')}
          </div>
          <div>
            <label className="block text-sm">
              End
              <input type={dateType} className={field} value={form.endDate} onChange={(e) => set('endDate', e.target.value)} />
            </label>
            {error('endDate')}
          </div>
        </div>
        <RepeatControl rule={form.recurrenceRule} startDay={form.startDate.slice(0, 10)} onChange={setRule} error={errors.recurrenceRule} />
      </fieldset>
      <fieldset className="space-y-3">
        <legend className="font-semibold">Location</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={form.isVirtual} onChange={(e) => set('isVirtual', e.target.checked)} />
          Virtual event
        </label>
        {form.isVirtual ? (
          <div>
            <label className="block text-sm">
              Meeting link
              <input type="url" className={field} value={form.virtualLink} onChange={(e) => set('virtualLink', e.target.value)} />
            </label>
            {error('virtualLink')}
          </div>
        ) : (
          <label className="block text-sm">
            Venue / location
            <input className={field} value={form.location} onChange={(e) => set('location', e.target.value)} />
          </label>
        )}
        <fieldset className="grid gap-2 sm:grid-cols-2">
          <legend className="mb-1 text-sm font-medium">Address (optional: the event page links it on a map)</legend>
          <label className="block text-sm sm:col-span-2">
            Street
            <input className={field} autoComplete="street-address" value={form.street} onChange={(e) => set('street', e.target.value)} />
          </label>
          <label className="block text-sm">
            City
            <input className={field} autoComplete="address-level2" value={form.city} onChange={(e) => set('city', e.target.value)} />
          </label>
          <label className="block text-sm">
            State / region
            <input className={field} autoComplete="address-level1" value={form.region} onChange={(e) => set('region', e.target.value)} />
          </label>
          <label className="block text-sm">
            Postal code
            <input
              className={field}
              autoComplete="postal-code"
              value={form.postalCode}
              onChange={(e) => set('postalCode', e.target.value)}
            />
          </label>
          <label className="block text-sm">
            Country
            <input className={field} autoComplete="country-name" value={form.country} onChange={(e) => set('country', e.target.value)} />
          </label>
          <div>
            <label className="block text-sm">
              Latitude
              <input inputMode="decimal" className={field} value={form.lat} onChange={(e) => set('lat', e.target.value)} />
            </label>
            {error('geo.lat')}
          </div>
          <div>
            <label className="block text-sm">
              Longitude
              <input inputMode="decimal" className={field} value={form.lon} onChange={(e) => set('lon', e.target.value)} />
            </label>
            {error('geo.lon')}
          </div>
        </fieldset>
      </fieldset>
      <fieldset className="space-y-3">
        <legend className="font-semibold">Event Settings</legend>
        <label className="block text-sm">
          Max attendees
          <input
            inputMode="numeric"
            className={field}
            value={form.maxAttendees}
            onChange={(e) => set('maxAttendees', e.target.value)}
            placeholder="No limit"
          />
        </label>
        {error('maxAttendees')}
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={form.isPublic} onChange={(e) => set('isPublic', e.target.checked)} />
          Public — Anyone can see and join this event
        </label>
        <TagInput id="event-tag" limitsId="event-tag-limits" className={field} entry={tagEntry} />
        <p
          id="event-tag-limits"
          className={`text-sm ${tagEntry.refusal || errors.tags ? 'text-red-600 dark:text-red-400' : 'text-slate-600 dark:text-slate-400'}`}
        >
          {tagEntry.refusal ?? errors.tags ?? `${form.tags.length} of ${MAX_TAGS_PER_ITEM} tags, up to ${TAG_MAX_LENGTH} characters each`}
        </p>
        {form.tags.length > 0 && (
          <ul className="flex flex-wrap gap-2">
            {form.tags.map((t) => (
              <li key={t} className="flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2 text-sm dark:bg-slate-800">
                {t}
                <button
                  type="button"
                  aria-label={`Remove tag ${t}`}
                  onClick={() =>
                    set(
                      'tags',
                      form.tags.filter((x) => x !== t),
                    )
                  }
                  className="min-h-8 min-w-8"
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
      {staff && (
        <fieldset className="space-y-2">
          <legend className="font-semibold">Admin Settings</legend>
          <p className="text-sm text-slate-600 dark:text-slate-400">These settings are only available to staff and administrators.</p>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={moderation.featured}
              onChange={(e) => setModeration((m) => ({ ...m, featured: e.target.checked }))}
            />
            Featured — shown in Featured Events
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={moderation.approved}
              disabled={!editing || event!.isApproved}
              onChange={(e) => setModeration((m) => ({ ...m, approved: e.target.checked }))}
            />
            Approved — on the calendar for everyone at once{!editing && ' (events by staff always are)'}
          </label>
          <label className="mt-2 flex items-center gap-2 text-sm">
            <input type="checkbox" checked={form.waitlist} onChange={(e) => set('waitlist', e.target.checked)} />
            Waiting list — when the event is full, members can queue for the next free place
          </label>
        </fieldset>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onPress={onDone}>
          Cancel
        </Button>
        <Button type="submit" isDisabled={save.isPending || upload.isPending}>
          {save.isPending ? (editing ? 'Updating...' : 'Creating...') : editing ? 'Update Event' : 'Create Event'}
        </Button>
      </div>
    </form>
  );
}
