/** /notifications: what happened to my posts, comments and events, newest first; opening one marks it read. */
import { useNavigate } from '@tanstack/react-router';
import { Button } from '../../components/ui/button';
import { EmptyBackToFeed, PagedListView } from '../../components/paged-list-view';
import { PageHeader } from '../../components/ui/page-header';
import { useToast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api';
import { relativeTime } from '../../lib/relative-time';
import { useMarkRead, useNotifications, type Notification } from './api';

function Item({ notification, onOpen }: { notification: Notification; onOpen: () => Promise<unknown> }) {
  const unread = !notification.read;
  const navigate = useNavigate();
  return (
    <li
      className={`flex items-start gap-3 rounded-xl border p-4 ${unread ? 'border-brand-200 bg-brand-50 dark:border-slate-600 dark:bg-slate-800' : 'border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900'}`}
    >
      <span
        aria-hidden="true"
        className={`mt-2 size-2 shrink-0 rounded-full ${unread ? 'bg-brand-600 dark:bg-amber-accent' : 'bg-transparent'}`}
      />
      <div className="min-w-0 flex-1">
        <a
          href={notification.link}
          onClick={(event) => {
            if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            // Marked read first, then followed, so leaving the page does not cut the request short.
            void onOpen().finally(() => void navigate({ href: notification.link }));
          }}
          className={`break-words hover:underline ${unread ? 'font-semibold' : ''}`}
        >
          {notification.text}
          {unread && <span className="sr-only"> (unread)</span>}
        </a>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          <time dateTime={notification.createdAt} title={new Date(notification.createdAt).toLocaleString()}>
            {relativeTime(notification.createdAt)}
          </time>
        </p>
      </div>
    </li>
  );
}

export function NotificationsPage() {
  const { list, items, unread } = useNotifications();
  const markRead = useMarkRead();
  const { toast } = useToast();
  const failed = (error: unknown) =>
    toast({ title: 'Error', description: errorMessage(error, 'Something went wrong. Please try again.'), variant: 'destructive' });
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader title="Notifications" description="Replies, comments, approvals and changes to the events you answered." />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
          {unread === 0 ? 'You are all caught up.' : unread === 1 ? '1 unread notification' : `${unread} unread notifications`}
        </p>
        {unread > 0 && (
          <Button variant="secondary" isDisabled={markRead.isPending} onPress={() => markRead.mutate(undefined, { onError: failed })}>
            Mark all as read
          </Button>
        )}
      </div>
      <PagedListView
        list={list}
        loading="Loading notifications"
        failed="Your notifications could not be loaded. Please refresh the page."
        isEmpty={items.length === 0}
        empty={
          <EmptyBackToFeed title="No notifications yet">
            When someone comments on your posts, replies to you, or an event you answered changes, it shows here.
          </EmptyBackToFeed>
        }
      >
        <ul aria-label="Notifications" className="space-y-2">
          {items.map((notification) => (
            <Item
              key={notification.id}
              notification={notification}
              onOpen={() => (notification.read ? Promise.resolve() : markRead.mutateAsync([notification.id]).catch(() => undefined))}
            />
          ))}
        </ul>
      </PagedListView>
    </div>
  );
}
