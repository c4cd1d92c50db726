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

interface PostalAddress {
  street: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
}
interface Coordinates {
  lat: number;
  lon: number;
}

/** An address on one line, as a letter would write it: `625 S 4th St, Louisville, KY 40202, United States`. */
export const addressLine = (address: PostalAddress | null | undefined) =>
  address
    ? [address.street, address.city, [address.region, address.postalCode].filter(Boolean).join(' '), address.country]
        .map((part) => part.trim())
        .filter(Boolean)
        .join(', ')
    : '';

/**
 * Where the place is on a map (OpenStreetMap, a plain link: no map script runs on the site): its coordinates when
 * given, else a search for its address, else for its location; null for a place with none of them.
 */
export function mapLink(event: { location: string; address?: PostalAddress | null; geo?: Coordinates | null }): string | null {
  if (event.geo) {
    const { lat, lon } = event.geo;
    return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
  }
  const query = addressLine(event.address) || event.location.trim();
  return query ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(query)}` : null;
}
