/** What the widgets page reads: the published posts a blog-post widget may show. */
import { usePages } from '../../lib/paged-list';

export const usePublishedPostChoices = () => usePages('/api/blog', { params: { query: { limit: '50' } } });
