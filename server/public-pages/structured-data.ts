/**
 * What search engines read of a public page (docs/domain/shell.md#public-pages): schema.org JSON-LD, typed by
 * schema-dts so a missing or misspelt property fails the type check. Organization on the landing page,
 * BlogPosting on a blog post, Event on an event.
 */
import type {
  Blog,
  BlogPosting,
  Event,
  EventAttendanceModeEnumeration,
  Organization,
  Place,
  PostalAddress,
  VirtualLocation,
  WithContext,
} from 'schema-dts';
import { htmlToText } from '../../shared/blog/excerpt';
import { addressLine } from '../../shared/events/summary-lines';
import { SITE_DESCRIPTION, SITE_NAME } from '../../shared/landing';
import type { BlogPostDocument, ListedPost } from '../../projections/blog';
import type { EventDetailsDocument } from '../../projections/events';

export type StructuredData = WithContext<Organization> | WithContext<BlogPosting> | WithContext<Event> | WithContext<Blog>;

/** The picture that stands for the site where a page has none of its own (1200×630, as link previews want). */
export const siteImage = (siteUrl: string) => `${siteUrl}/og-image.png`;

const publisher = (siteUrl: string) =>
  ({ '@type': 'Organization', name: SITE_NAME, url: `${siteUrl}/`, logo: siteImage(siteUrl) }) satisfies Organization;

export function organizationData(siteUrl: string): WithContext<Organization> {
  return { '@context': 'https://schema.org', ...publisher(siteUrl), description: SITE_DESCRIPTION };
}

export function blogPostingData(post: BlogPostDocument, siteUrl: string, image: string): WithContext<BlogPosting> {
  const url = `${siteUrl}/blog/${post.slug}`;
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.excerpt || htmlToText(post.content).slice(0, 200),
    datePublished: post.publishedAt ?? post.createdAt,
    dateModified: post.updatedAt,
    author: { '@type': 'Person', name: post.author.name },
    publisher: publisher(siteUrl),
    image,
    url,
    mainEntityOfPage: url,
    ...(post.tags.length > 0 ? { keywords: post.tags.join(', ') } : {}),
  };
}

/** A page of the blog (or of a tag's posts): the blog, with the posts it lists. */
export function blogData(
  posts: ListedPost[],
  { url, name, description }: { url: string; name: string; description: string },
  siteUrl: string,
): WithContext<Blog> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Blog',
    name,
    description,
    url,
    publisher: publisher(siteUrl),
    blogPost: posts.map((post) => ({
      '@type': 'BlogPosting',
      headline: post.title,
      url: `${siteUrl}/blog/${post.slug}`,
      datePublished: post.publishedAt ?? post.createdAt,
      author: { '@type': 'Person', name: post.author.name },
    })),
  };
}

/** All-day events are calendar dates (their instants are UTC midnights), as schema.org's Date is. */
const eventDate = (iso: string, allDay: boolean) => (allDay ? iso.slice(0, 10) : iso);

function attendanceMode(event: EventDetailsDocument): EventAttendanceModeEnumeration {
  if (!event.isVirtual) return 'https://schema.org/OfflineEventAttendanceMode';
  return event.location ? 'https://schema.org/MixedEventAttendanceMode' : 'https://schema.org/OnlineEventAttendanceMode';
}

/** The place's postal address, as the organiser gave it (only the parts given), else its location's text. */
function postalAddress(event: EventDetailsDocument): PostalAddress | string {
  const given = event.address;
  if (!given || !addressLine(given)) return event.location || 'To be announced';
  return {
    '@type': 'PostalAddress',
    ...(given.street ? { streetAddress: given.street } : {}),
    ...(given.city ? { addressLocality: given.city } : {}),
    ...(given.region ? { addressRegion: given.region } : {}),
    ...(given.postalCode ? { postalCode: given.postalCode } : {}),
    ...(given.country ? { addressCountry: given.country } : {}),
  };
}

function locations(event: EventDetailsDocument, url: string): (Place | VirtualLocation)[] {
  const hasPlace = event.location || addressLine(event.address) || event.geo;
  const place: Place[] =
    hasPlace || !event.isVirtual
      ? [
          {
            '@type': 'Place',
            name: event.location || addressLine(event.address) || 'To be announced',
            address: postalAddress(event),
            ...(event.geo ? { geo: { '@type': 'GeoCoordinates', latitude: event.geo.lat, longitude: event.geo.lon } } : {}),
          },
        ]
      : [];
  // The meeting link is for those who RSVP; the page that gives it out is what a crawler may point to.
  const online: VirtualLocation[] = event.isVirtual ? [{ '@type': 'VirtualLocation', url }] : [];
  return [...place, ...online];
}

export function eventData(event: EventDetailsDocument, siteUrl: string, image: string): WithContext<Event> {
  const url = `${siteUrl}/events/${event._id}`;
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.title,
    description: event.description || event.title,
    startDate: eventDate(event.startDate, event.allDay),
    endDate: eventDate(event.endDate, event.allDay),
    eventStatus: event.isCancelled ? 'https://schema.org/EventCancelled' : 'https://schema.org/EventScheduled',
    eventAttendanceMode: attendanceMode(event),
    location: locations(event, url),
    organizer: { '@type': 'Person', name: `${event.organizer.firstName} ${event.organizer.lastName}`.trim() || 'Former member' },
    image,
    url,
    ...(event.maxAttendees === null
      ? {}
      : {
          maximumAttendeeCapacity: event.maxAttendees,
          remainingAttendeeCapacity: Math.max(0, event.maxAttendees - event.attendees.attending),
        }),
  };
}
