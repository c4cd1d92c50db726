/** The reports queue's read model, as the rest of the site reads it (docs/architecture.md#read-model-ownership). */
export { reportsProjection, reportsCollection, openReportCount, reportKey, QUEUE_ORDER } from './reports';
export { reportDtos } from './queries';
