/** Comments' read model, as the rest of the site reads it (docs/architecture.md#read-model-ownership). */
export { commentsProjection, commentsCollection } from './comments';
export { commentDtos } from './queries';
