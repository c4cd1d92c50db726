/** Every projection the runner maintains, in the order they are applied. */
import type { Projection } from './runner';
import { membersProjection } from './members/members';
import { memberPostCountsProjection } from './members/post-counts';

export const allProjections: readonly Projection[] = [membersProjection, memberPostCountsProjection];
