/** The slice of pino every part of the site logs through (tests pass a silent or collecting one). */
export interface Logger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** How long a part may take to stop before the log names it (a shutdown that hangs then says where). */
export const SLOW_STOP_MS = 10_000;

/** Waits for `work`, naming `part` in the log each time it has taken another SLOW_STOP_MS. */
export async function namedIfSlow<T>(logger: Logger, part: string, work: Promise<T>, context: () => object = () => ({})): Promise<T> {
  const started = Date.now();
  const slow = setInterval(
    () => logger.error({ part, waitedMs: Date.now() - started, ...context() }, `still stopping ${part} after ${Date.now() - started} ms`),
    SLOW_STOP_MS,
  );
  try {
    return await work;
  } finally {
    clearInterval(slow);
  }
}
