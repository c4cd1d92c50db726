/** The slice of pino every part of the site logs through (tests pass a silent or collecting one). */
export interface Logger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}
