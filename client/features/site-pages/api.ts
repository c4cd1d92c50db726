/** The site pages' calls (docs/domain/site-pages.md). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SitePage, SitePageInput, SitePageSlug } from '../../../shared/site-pages/schemas';
import { apiRequest } from '../../lib/api';
import { apiKey, getQuery } from '../../lib/query-keys';

const PAGES = '/api/pages';
const pageAddress = (slug: SitePageSlug) => `${PAGES}/${slug}`;

export const useSitePage = (slug: SitePageSlug) => useQuery(getQuery<SitePage>(pageAddress(slug)));
export const useSitePages = () => useQuery(getQuery<SitePage[]>(PAGES));
export const previewSitePage = (body: string) => apiRequest<{ html: string }>('POST', `${PAGES}/preview`, { body });

export function useSaveSitePage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ slug, input }: { slug: SitePageSlug; input: SitePageInput }) => apiRequest<SitePage>('PUT', pageAddress(slug), input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKey(PAGES) }),
  });
}
