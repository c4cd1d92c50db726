/**
 * Who acts, and when: most commands need a signed-in member, and their events are stamped with the command's time.
 */
import { type Actor, type CommandMetadata, fail } from './domain';

/** The signed-in actor and the command's time as events carry it; refused (401) for nobody signed in. */
export function signedIn({ actor, now }: CommandMetadata): { actor: Actor; at: string } {
  if (!actor) throw fail.unauthenticated();
  return { actor, at: now.toISOString() };
}
