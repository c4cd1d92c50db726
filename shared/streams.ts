/**
 * Stream names, one helper per stream type, so category streams stay usable (`$ce-event` in KurrentDB).
 * `email-<sha256>` claims an address for one member; `founder-community` is claimed by the first account.
 */
export const STREAM_TYPES = ['member', 'email', 'founder', 'event', 'post', 'blog', 'subscription'] as const;
export type StreamType = (typeof STREAM_TYPES)[number];

export function streamName(type: StreamType, id: string): string {
  return `${type}-${id}`;
}

/** Splits `event-<uuid>` into its type and id; ids may contain dashes. */
export function parseStreamName(name: string): { type: string; id: string } {
  const dash = name.indexOf('-');
  return dash < 0 ? { type: name, id: '' } : { type: name.slice(0, dash), id: name.slice(dash + 1) };
}
