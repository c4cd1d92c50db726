/** Every projection the runner maintains, in the order they are applied. */
import type { Projection } from './runner';

export const allProjections: readonly Projection[] = [];
