/**
 * The wall clock in a time zone: what it shows at an instant, and the instant it shows a given time. The calendar's
 * days (dates.ts) and recurring events' occurrences (recurrence.ts) both reckon with it.
 */
export interface Wall {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const wallFormatters = new Map<string, Intl.DateTimeFormat>();
/** The wall clock `zone` shows at an instant. */
export function wallClock(instant: number, zone: string): Wall {
  let format = wallFormatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallFormatters.set(zone, format);
  }
  const parts = format.formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour'), minute: part('minute'), second: part('second') };
}

const asUtc = (wall: Wall) => Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
/** How far ahead of UTC `zone`'s clock is at an instant, in ms. */
export const zoneOffset = (instant: number, zone: string) => asUtc(wallClock(instant, zone)) - Math.floor(instant / 1000) * 1000;

/** The instant `zone`'s clock shows `wall` (the earlier one in a repeated hour; past a skipped hour, as far as the clock jumped). */
export function fromWallClock(wall: Wall, zone: string): number {
  const wanted = asUtc(wall);
  const first = wanted - zoneOffset(wanted, zone);
  return wanted - zoneOffset(first, zone);
}
