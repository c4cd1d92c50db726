/** The events' read models, as the rest of the site reads them (docs/architecture.md#read-model-ownership). */
export { eventsProjection, calendarEvents, eventDetails, type CalendarEventDocument, type EventDetailsDocument } from './events';
export { memberEventsProjection, memberEvents, EVENT_LINKS, type MemberEventDocument } from './member-events';
export { eventStatsProjection, readEventStats } from './event-stats';
export { calendarFeedsProjection, calendarFeeds } from './calendar-feeds';
export { canSee, detailsDto, eventDto, standing, standingOf, visibility } from './queries';
export { atOccurrence, hasOccurrence, occurrenceAnswers, occurrenceKey, occurrencePage, occurrencesOf, SERIES_MAX } from './occurrences';
export { occurrenceField } from './series';
