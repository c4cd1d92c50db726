/** The reports queue as the API answers it. */
import type { ReportGroup } from '../../shared/reports/schemas';
import type { ReportDocument } from './reports';

export function reportDto(report: ReportDocument): ReportGroup {
  const { targetType, targetId, excerpt, media, author, reasons, reporters, firstReportedAt, thread, link } = report;
  return {
    targetType,
    targetId,
    excerpt,
    ...(media ? { media } : {}),
    author,
    reasons,
    reporters,
    firstReportedAt,
    thread,
    ...(link ? { link } : {}),
  };
}
