/** The site pages' calls (docs/domain/site-pages.md). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SitePageInput, SitePageSlug } from '../../../shared/site-pages/schemas';
import { answer, api } from '../../lib/api';
import { apiQuery, operationKey } from '../../lib/query-keys';

export const useSitePage = (slug: SitePageSlug) => useQuery(apiQuery('/api/pages/{slug}', { params: { path: { slug } } }));
export const useSitePages = () => useQuery(apiQuery('/api/pages'));
export const previewSitePage = (body: string) => answer(api.POST('/api/pages/preview', { body: { body } }));

export function useSaveSitePage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ slug, input }: { slug: SitePageSlug; input: SitePageInput }) =>
      answer(api.PUT('/api/pages/{slug}', { params: { path: { slug } }, body: input })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operationKey('/api/pages') }),
  });
}
