/** The uploads' read model and its sweep, as the rest of the site uses them (docs/architecture.md#read-model-ownership). */
export { mediaProjection, mediaCollection, mediaFileUrl, mediaView, type MediaDocument } from './media';
export { startMediaSweep, sweepOrphanMedia } from './sweep';
