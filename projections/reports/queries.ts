/** The reports queue as the API answers it: each entry's author named as they are now. */
import type { DocumentStore } from '../../platform/document-store/port';
import { bylineName, bylinesOf } from '../../shared/members/byline';
import type { ReportGroup } from '../../shared/reports/schemas';
import { reportAuthors, type ReportDocument } from './reports';

export async function reportDtos(store: DocumentStore, reports: readonly ReportDocument[]): Promise<ReportGroup[]> {
  const bylines = await bylinesOf(
    reportAuthors(store),
    reports.map((report) => report.author.id),
  );
  return reports.map(({ targetType, targetId, excerpt, media, author, reasons, reporters, firstReportedAt, thread, link }) => ({
    targetType,
    targetId,
    excerpt,
    ...(media ? { media } : {}),
    author: { id: author.id, name: bylineName(bylines.get(author.id) ?? null) },
    reasons,
    reporters,
    firstReportedAt,
    thread,
    ...(link ? { link } : {}),
  }));
}
