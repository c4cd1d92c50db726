/** Save or unsave a post, event or blog post (docs/domain/bookmarks.md), from its card or page. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BookmarkKind } from '../../shared/bookmarks/schemas';
import { answer, api, errorMessage } from '../lib/api';
import { fetchEveryPage } from '../lib/paged-list';
import { operationKey } from '../lib/query-keys';
import { useToast } from './ui/toast';

const SAVED = { params: { query: { limit: '100' } } };

/** What the member saved, as `<kind>:<id>`; one read shared by every button on the page. */
function useSaved() {
  return useQuery({
    queryKey: [...operationKey('/api/bookmarks', SAVED.params), 'all'],
    queryFn: () => fetchEveryPage('/api/bookmarks', SAVED),
    select: (saved) => new Set(saved.map((bookmark) => `${bookmark.kind}:${bookmark.id}`)),
  });
}

export function BookmarkButton({ kind, id, label, className = '' }: { kind: BookmarkKind; id: string; label: string; className?: string }) {
  const saved = useSaved();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const isSaved = saved.data?.has(`${kind}:${id}`) ?? false;
  const toggle = useMutation({
    mutationFn: () => {
      const params = { path: { kind, id } };
      return isSaved
        ? answer(api.DELETE('/api/bookmarks/{kind}/{id}', { params }))
        : answer(api.PUT('/api/bookmarks/{kind}/{id}', { params }));
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: operationKey('/api/bookmarks') });
      toast({ title: isSaved ? 'Removed from bookmarks' : 'Saved to bookmarks' });
    },
    onError: (error) =>
      toast({ title: 'Error', description: errorMessage(error, 'Something went wrong. Please try again.'), variant: 'destructive' }),
  });
  return (
    <button
      type="button"
      aria-pressed={isSaved}
      aria-label={`${isSaved ? 'Saved' : 'Save'} ${label}`}
      disabled={saved.isPending || toggle.isPending}
      onClick={() => toggle.mutate()}
      className={`min-h-11 rounded-md px-3 text-sm hover:bg-slate-100 disabled:opacity-60 dark:hover:bg-slate-800 ${isSaved ? 'font-semibold text-brand-700 dark:text-amber-accent' : ''} ${className}`}
    >
      {isSaved ? '★ Saved' : '☆ Save'}
    </button>
  );
}
