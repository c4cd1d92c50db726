/** What the widgets page reads: the published posts a blog-post widget may show. */
import type { BlogPost } from '../../../shared/blog/schemas';
import { usePagedList } from '../../lib/paged-list';

export const usePublishedPostChoices = () => usePagedList<BlogPost>('/api/blog?limit=50');
