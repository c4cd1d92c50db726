/**
 * Given/when/then for deciders:
 *   given(decider, [pastEvents]).when(command).then([newEvents])
 *   given(decider, [pastEvents]).when(command).thenThrows('forbidden', 'Only staff can approve posts')
 * `then([])` states a no-op.
 */
import { expect } from 'vitest';
import { type Decider, type DomainEvent, type ErrorCode, DomainError, fold } from '../../shared/domain';

export interface DeciderSpec<Command, Event> {
  when: (command: Command) => {
    then: (expected: readonly Event[]) => void;
    thenThrows: (code: ErrorCode, message?: string | RegExp) => void;
  };
}

export function given<State, Command, Event extends DomainEvent>(
  decider: Decider<State, Command, Event>,
  events: readonly Event[] = [],
): DeciderSpec<Command, Event> {
  return {
    when: (command) => ({
      then: (expected) => {
        const state = fold(decider, events);
        expect(decider.decide(command, state)).toEqual(expected);
      },
      thenThrows: (code, message) => {
        const state = fold(decider, events);
        let thrown: unknown;
        try {
          decider.decide(command, state);
        } catch (error) {
          thrown = error;
        }
        expect(thrown, 'expected decide to throw a DomainError').toBeInstanceOf(DomainError);
        const error = thrown as DomainError;
        expect({ code: error.code }).toEqual({ code });
        if (typeof message === 'string') expect(error.message).toBe(message);
        else if (message) expect(error.message).toMatch(message);
      },
    }),
  };
}

/** Shorthand for one decider: `const spec = deciderSpec(postDecider); spec.given([...]).when(...)`. */
export function deciderSpec<State, Command, Event extends DomainEvent>(decider: Decider<State, Command, Event>) {
  return { given: (events: readonly Event[] = []) => given(decider, events) };
}
