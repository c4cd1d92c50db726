/** The e-mail subscriptions' read model, as the rest of the site reads it (docs/architecture.md#read-model-ownership). */
export { subscriptionsProjection, subscriptionsCollection, type SubscriptionDocument } from './subscriptions';
