/** Lines an event's own page shows, the same in the server's HTML of it and in the app. */
interface Placed {
  location: string;
  isVirtual: boolean;
}
interface Counted {
  maxAttendees: number | null;
  attendees: { attending: number };
}

export const placeLine = (event: Placed) =>
  [event.location, event.isVirtual ? 'Online' : ''].filter(Boolean).join(' · ') || 'Place to be announced';

export const placesLine = ({ maxAttendees, attendees: { attending } }: Counted) =>
  maxAttendees === null ? `${attending} attending` : `${attending} of ${maxAttendees} places taken`;
