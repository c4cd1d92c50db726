/**
 * The shape every stream's domain logic takes (Dudycz's decider): pure functions,
 * no I/O. Time, the acting member and new ids arrive with the command.
 */

export type Role = 'admin' | 'staff' | 'member' | 'subscriber';
export const ROLES = ['admin', 'staff', 'member', 'subscriber'] as const satisfies readonly Role[];

export interface Actor {
  id: string;
  role: Role;
}

/** What every command carries besides its data. */
export interface CommandMetadata {
  now: Date;
  actor: Actor | null;
}

export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

export interface Decider<State, Command, Event extends DomainEvent> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  /** Returns the new events (possibly none: a no-op) or throws a DomainError. */
  decide: (command: Command, state: State) => Event[];
}

/** Error codes of the domain and the HTTP status each maps to. */
export const ERROR_STATUS = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rule: 422,
  rate_limited: 429,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const fail = {
  invalid: (message: string, fields?: Record<string, string>) => new DomainError('invalid', message, fields),
  unauthenticated: (message = 'Not signed in') => new DomainError('unauthenticated', message),
  forbidden: (message = 'You do not have permission to do that') => new DomainError('forbidden', message),
  notFound: (message = 'Not found') => new DomainError('not_found', message),
  conflict: (message: string) => new DomainError('conflict', message),
  rule: (message: string) => new DomainError('rule', message),
};

export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}

/** Folds a stream's events into its state. */
export function fold<State, Event extends DomainEvent>(
  decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>,
  events: readonly Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState());
}
