/** The Calendar page's "Subscribe in your calendar app" panel: the member's private feed URL, to copy, open or replace. */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { QueryState } from '../../components/load-state';
import { Panel } from '../../components/panel';
import { Button } from '../../components/ui/button';
import { useToast } from '../../components/ui/toast';
import { answer, api, errorMessage } from '../../lib/api';
import { apiQuery, operationKey } from '../../lib/query-keys';

export function PersonalCalendar() {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const feed = useQuery(apiQuery('/api/me/calendar-url'));
  const [confirming, setConfirming] = useState(false);
  const reset = useMutation({
    mutationFn: () => answer(api.POST('/api/me/calendar-url/reset')),
    onSuccess: (fresh) => {
      queryClient.setQueryData(operationKey('/api/me/calendar-url'), fresh);
      setConfirming(false);
      toast({ title: 'New calendar link made', description: 'The old link no longer works. Add the new one to your calendar app.' });
    },
    onError: (error) =>
      toast({ title: 'The link could not be replaced', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Link copied', description: 'Paste it into your calendar app as a subscription.' });
    } catch {
      toast({ title: 'Copy failed', description: 'Select the link and copy it yourself.', variant: 'destructive' });
    }
  };

  return (
    <Panel id="personal-calendar" title="Subscribe in your calendar app">
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        The events you attend, organise or wait for, kept up to date in your own calendar. Keep this link private.
      </p>
      <QueryState
        query={feed}
        plain
        className="mt-2 text-sm"
        loading="Loading your link..."
        failed="Your calendar link could not be loaded."
      >
        {({ url }) => (
          <div className="mt-2 space-y-2">
            <label htmlFor="personal-calendar-url" className="sr-only">
              Your private calendar link
            </label>
            <input
              id="personal-calendar-url"
              readOnly
              value={url}
              onFocus={(e) => e.target.select()}
              className="min-h-11 w-full rounded-md border border-slate-300 bg-slate-50 px-2 text-xs dark:border-slate-600 dark:bg-slate-800"
            />
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" onPress={() => void copy(url)}>
                Copy link
              </Button>
              <a
                href={url.replace(/^https?:/u, 'webcal:')}
                className="inline-flex min-h-11 items-center px-2 text-sm font-medium text-brand-700 underline dark:text-amber-accent"
              >
                Open in calendar app
              </a>
            </div>
            {confirming ? (
              <div role="alert" className="rounded-md bg-amber-50 p-2 text-sm dark:bg-amber-950">
                <p>The current link stops working at once, in every app that uses it.</p>
                <div className="mt-2 flex gap-2">
                  <Button variant="destructive" onPress={() => reset.mutate()} isDisabled={reset.isPending}>
                    {reset.isPending ? 'Making a new link...' : 'Make a new link'}
                  </Button>
                  <Button variant="ghost" onPress={() => setConfirming(false)}>
                    Cancel
                  </Button>
                </div>
              </div>
            ) : (
              <Button variant="ghost" onPress={() => setConfirming(true)}>
                Make a new link
              </Button>
            )}
          </div>
        )}
      </QueryState>
    </Panel>
  );
}
