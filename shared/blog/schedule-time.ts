/**
 * The editor's "Schedule" field is a wall-clock time in the site's time zone (TIME_ZONE), whatever the writer's
 * own; these turn it into the UTC instant the API keeps, and back.
 */

/** How far `timeZone` is ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, Number(part.value)]),
  );
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** `2030-01-31T09:00` in `timeZone` → its UTC ISO instant; null for a value that is not such a time. */
export function zonedToUtc(local: string, timeZone: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/u.test(local)) return null;
  const asUtc = Date.parse(`${local}:00Z`);
  if (Number.isNaN(asUtc)) return null;
  // Twice: the offset at the guess, which is right unless the guess crossed a change of offset.
  const first = asUtc - offsetAt(asUtc, timeZone);
  return new Date(asUtc - offsetAt(first, timeZone)).toISOString();
}

/** A UTC ISO instant → `2030-01-31T09:00` in `timeZone`, as a datetime-local input shows it. */
export function utcToZoned(iso: string, timeZone: string): string {
  const instant = Date.parse(iso);
  return new Date(instant + offsetAt(instant, timeZone)).toISOString().slice(0, 16);
}

/** "Jan 31, 2030, 9:00 AM CST": when a scheduled post goes out, in the site's time zone, named. */
export const scheduledTimeLabel = (iso: string, timeZone: string) =>
  new Date(iso).toLocaleString('en-US', { timeZone, dateStyle: 'medium', timeStyle: 'short' }) + ` (${timeZone.replace(/_/gu, ' ')})`;
