/**
 * /discussions/topics/{id}: the opening post and its replies, oldest first, a page at a time; quoting, editing with
 * history, deleting and reporting a reply; the reply box at the end (or "This topic is closed"); the reader's watch
 * level; staff's pin, lock and move. `#reply-{id}` (mail and notifications link there) loads pages until that reply
 * is on the page, then scrolls to it and marks it. Replies scrolled past are recorded as read. New replies arrive by
 * push (client/lib/socket.ts), for every reader at once.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link, useNavigate, useParams, useRouterState } from '@tanstack/react-router';
import { Label, Radio, RadioGroup } from 'react-aria-components';
import { DialogClose, DialogWindow } from '../../components/dialog-window';
import { LoadFailed, Loading } from '../../components/load-state';
import { MemberLink } from '../../components/member-link';
import { ReasonDialog } from '../../components/reason-dialog';
import { Avatar } from '../../components/ui/avatar';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ROLE_COLOUR } from '../../components/ui/role-colour';
import { useToast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api';
import { isStaff, useCurrentUser, type CurrentUser } from '../../lib/current-user';
import { relativeTime } from '../../lib/relative-time';
import {
  useCategories,
  useReplyCommands,
  useReplyRevisions,
  useTopic,
  useTopicCommands,
  type Reply,
  type Topic,
  type WatchLevel,
} from './api';
import type { WritingBoxHandle } from '../../components/writing-box';
import { CategoryMark, DiscussionWritingBox, PostText, fieldClass } from './parts';
import { htmlToText, quoteOf, withQuote } from './text';
import { canSeeRevisions, deleteRefusal } from '../../../shared/discussions/rules';

const HIGHLIGHT = 'bg-amber-50 ring-2 ring-amber-500 dark:bg-slate-800';
/** How long the reader stays at the end before the place is recorded: one request for a quick scroll, not one per reply. */
const READ_DELAY_MS = 800;

const action =
  'min-h-11 rounded-md px-3 text-sm font-medium text-slate-700 outline-none hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-amber-500 dark:text-slate-300 dark:hover:bg-slate-800';

function Byline({ author, at, children }: { author: Reply['author']; at: string; children?: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5 text-sm">
      <MemberLink id={author.id} name={author.name} className="font-semibold" />
      <span className={`text-xs font-medium capitalize ${ROLE_COLOUR[author.role] ?? ''}`}>{author.role}</span>
      <time dateTime={at} title={new Date(at).toLocaleString()} className="text-xs text-slate-600 dark:text-slate-400">
        {relativeTime(at)}
      </time>
      {children}
    </div>
  );
}

/** The earlier versions of an edited reply, newest first, in a dialog that Escape closes. */
/** Editing a post of the topic in place: its text to change; Save sends the new content (`onSave`), then the box closes. */
function EditBox({
  label,
  content,
  onClose,
  onSave,
}: {
  label: string;
  /** The post's HTML as it is. */
  content: string;
  onClose: () => void;
  onSave: (content: string) => Promise<unknown>;
}) {
  return (
    <div className="mt-2">
      <DiscussionWritingBox
        label={label}
        submitLabel="Save"
        initial={htmlToText(content)}
        autoFocus
        onCancel={onClose}
        onSubmit={async (html) => {
          await onSave(html);
          onClose();
        }}
      />
    </div>
  );
}

function RevisionsDialog({ reply, onClose }: { reply: Reply; onClose: () => void }) {
  const revisions = useReplyRevisions(reply.id, true);
  return (
    <DialogWindow onClose={onClose} title="Edit history" width="2xl" place="top">
      {revisions.isPending ? (
        <Loading className="mt-3">Loading earlier versions...</Loading>
      ) : revisions.isError ? (
        <LoadFailed className="mt-3">The history could not be loaded. Please try again.</LoadFailed>
      ) : (
        <ol className="mt-3 max-h-[60vh] space-y-3 overflow-y-auto">
          {revisions.data.map((revision) => (
            <li key={`${revision.at} ${revision.current}`} className="rounded-lg border border-slate-200 p-3 dark:border-slate-700">
              <p className="mb-1 text-xs text-slate-600 dark:text-slate-400">
                {revision.current ? 'Now, since ' : 'Until edited, written '}
                <time dateTime={revision.at}>{new Date(revision.at).toLocaleString()}</time>
              </p>
              <PostText content={revision.content} />
            </li>
          ))}
        </ol>
      )}
      <DialogClose onClose={onClose} variant="secondary" autoFocus />
    </DialogWindow>
  );
}

/** The words the reader selected inside `within`, if any: Quote then quotes just those. */
function selectedIn(within: RefObject<HTMLElement | null>): string {
  const chosen = window.getSelection();
  if (!chosen || chosen.isCollapsed || !within.current?.contains(chosen.anchorNode)) return '';
  return chosen.toString().trim();
}

/** Quote: what is selected is read as the pointer goes down, before pressing the button can clear the selection. */
function QuoteButton({ within, onQuote }: { within: RefObject<HTMLElement | null>; onQuote: (selected: string) => void }) {
  const selection = useRef('');
  return (
    <button
      type="button"
      onPointerDown={() => (selection.current = selectedIn(within))}
      onClick={() => {
        onQuote(selection.current || selectedIn(within));
        selection.current = '';
      }}
      className={action}
    >
      Quote
    </button>
  );
}

function ReplyItem({
  reply,
  viewer,
  canReply,
  highlighted,
  commands,
  onQuote,
}: {
  reply: Reply;
  viewer: CurrentUser;
  canReply: boolean;
  highlighted: boolean;
  commands: ReturnType<typeof useReplyCommands>;
  onQuote: (reply: Reply, selected: string) => void;
}) {
  const { toast } = useToast();
  const [editing, setEditing] = useState(false);
  const [history, setHistory] = useState(false);
  const article = useRef<HTMLElement>(null);
  const own = viewer.id === reply.author.id;
  // The rules the server applies: a reply's earlier texts and its deletion are for its author and staff.
  const mayReadHistory = canSeeRevisions(viewer, reply.author.id);
  const mayDelete = deleteRefusal(viewer, reply.author.id) === null;
  const failed = (error: unknown) =>
    toast({ title: 'Error', description: errorMessage(error, 'Something went wrong. Please try again.'), variant: 'destructive' });

  if (reply.deleted)
    return (
      <p
        id={`reply-${reply.id}`}
        data-reply-id={reply.id}
        tabIndex={-1}
        className={`scroll-mt-20 rounded-lg px-4 py-3 text-sm text-slate-600 italic outline-none dark:text-slate-400 ${highlighted ? HIGHLIGHT : ''}`}
      >
        Reply #{reply.number} was deleted.
      </p>
    );
  return (
    <article
      ref={article}
      id={`reply-${reply.id}`}
      data-reply-id={reply.id}
      tabIndex={-1}
      aria-label={`Reply by ${reply.author.name}`}
      className={`flex scroll-mt-20 gap-3 rounded-lg px-2 py-4 outline-none transition-colors sm:px-4 ${highlighted ? HIGHLIGHT : ''}`}
    >
      <MemberLink id={reply.author.id} name={reply.author.name} decorative>
        <Avatar name={reply.author.name} src={reply.author.avatar} size="md" />
      </MemberLink>
      <div className="min-w-0 flex-1">
        <Byline author={reply.author} at={reply.createdAt}>
          <a
            href={`#reply-${reply.id}`}
            aria-label={`Link to reply ${reply.number}`}
            className="rounded text-xs text-slate-600 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-amber-500 dark:text-slate-400"
          >
            #{reply.number}
          </a>
          {reply.replyTo && (
            <a
              href={`#reply-${reply.replyTo.id}`}
              className="rounded text-xs text-slate-600 underline outline-none focus-visible:ring-2 focus-visible:ring-amber-500 dark:text-slate-400"
            >
              in reply to {reply.replyTo.author.name} (#{reply.replyTo.number})
            </a>
          )}
          {reply.via === 'email' && <span className="text-xs text-slate-600 dark:text-slate-400">by e-mail</span>}
          {reply.editedAt &&
            (mayReadHistory ? (
              <button
                type="button"
                onClick={() => setHistory(true)}
                aria-label="edited: show the edit history"
                className="min-h-6 rounded text-xs text-slate-600 underline decoration-dotted outline-none hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-amber-500 dark:text-slate-400 dark:hover:text-slate-100"
              >
                edited
              </button>
            ) : (
              <span className="text-xs text-slate-600 dark:text-slate-400">edited</span>
            ))}
        </Byline>
        {editing ? (
          <EditBox
            label="Edit your reply"
            content={reply.content}
            onClose={() => setEditing(false)}
            onSave={(content) => commands.edit.mutateAsync({ id: reply.id, content })}
          />
        ) : (
          <div className="mt-1">
            <PostText content={reply.content} />
          </div>
        )}
        {!editing && (
          <div className="-ml-3 mt-1 flex flex-wrap gap-1">
            {canReply && <QuoteButton within={article} onQuote={(selected) => onQuote(reply, selected)} />}
            {own && (
              <button type="button" onClick={() => setEditing(true)} className={action}>
                Edit
              </button>
            )}
            {mayDelete && (
              <button
                type="button"
                onClick={() => {
                  if (
                    window.confirm(
                      own
                        ? 'Delete your reply? This cannot be undone.'
                        : `Delete this reply by ${reply.author.name}? This cannot be undone.`,
                    )
                  )
                    commands.remove.mutate(reply.id, { onError: failed });
                }}
                className={action}
              >
                Delete
              </button>
            )}
            {!own && (
              <ReasonDialog
                label="Report"
                triggerName={`Report reply by ${reply.author.name}`}
                triggerClassName={action}
                title="Report this reply?"
                description="Staff will look at it. Tell them what is wrong, if you like: only staff see it."
                fieldLabel="What is wrong with it"
                confirmLabel="Report reply"
                onConfirm={(reason) =>
                  commands.report.mutateAsync({ id: reply.id, reason }).then(
                    () => toast({ title: 'Reply reported', description: 'Thank you. Staff will review it.' }),
                    (error: unknown) => {
                      failed(error);
                      throw error;
                    },
                  )
                }
              />
            )}
          </div>
        )}
      </div>
      {history && <RevisionsDialog reply={reply} onClose={() => setHistory(false)} />}
    </article>
  );
}

const WATCH_LEVELS: { level: WatchLevel; label: string; explanation: string }[] = [
  {
    level: 'watching',
    label: 'Watching',
    explanation: 'Every new reply comes to you by e-mail (or in your digest), and you can answer it from your inbox.',
  },
  { level: 'normal', label: 'Normal', explanation: 'New replies show as unread here; you are told when someone mentions you.' },
  { level: 'muted', label: 'Muted', explanation: 'Nothing about this topic reaches you, and it never counts as unread.' },
];

function WatchControl({ topic, commands }: { topic: Topic; commands: ReturnType<typeof useTopicCommands> }) {
  const { toast } = useToast();
  const level = topic.watch;
  const explanation = WATCH_LEVELS.find((entry) => entry.level === level)?.explanation;
  return (
    <RadioGroup
      value={level}
      onChange={(next) =>
        commands.watch.mutate(next as WatchLevel, {
          onError: (error) =>
            toast({ title: 'Could not change it', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
        })
      }
      isDisabled={commands.watch.isPending}
      className="space-y-2"
    >
      <Label className="text-sm font-semibold">Notifications for this topic</Label>
      <div className="grid grid-cols-3 gap-1">
        {WATCH_LEVELS.map((entry) => (
          <Radio
            key={entry.level}
            value={entry.level}
            className="flex min-h-11 cursor-pointer items-center justify-center rounded-md border border-slate-300 px-1 text-sm font-medium outline-none data-[focus-visible]:ring-2 data-[focus-visible]:ring-amber-500 data-[selected]:border-brand-600 data-[selected]:bg-brand-600 data-[selected]:text-white dark:border-slate-600 dark:data-[selected]:border-amber-accent dark:data-[selected]:bg-amber-accent dark:data-[selected]:text-slate-950"
          >
            {entry.label}
          </Radio>
        ))}
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-400">{explanation}</p>
    </RadioGroup>
  );
}

function StaffControls({ topic, commands }: { topic: Topic; commands: ReturnType<typeof useTopicCommands> }) {
  const { toast } = useToast();
  const categories = useCategories();
  const [target, setTarget] = useState(topic.category.id);
  const run = (change: { pinned?: boolean; locked?: boolean; categoryId?: string }, done: string) =>
    commands.moderate.mutate(change, {
      onSuccess: () => toast({ title: done }),
      onError: (error) => toast({ title: 'Action failed', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
    });
  const busy = commands.moderate.isPending;
  return (
    <section aria-label="Staff controls" className="space-y-2">
      <h2 className="text-sm font-semibold">Staff</h2>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          isDisabled={busy}
          onPress={() => run({ pinned: !topic.pinned }, topic.pinned ? 'Topic unpinned' : 'Topic pinned')}
        >
          {topic.pinned ? 'Unpin' : 'Pin'}
        </Button>
        <Button
          variant="secondary"
          isDisabled={busy}
          onPress={() => run({ locked: !topic.locked }, topic.locked ? 'Topic reopened' : 'Topic closed')}
        >
          {topic.locked ? 'Unlock' : 'Lock'}
        </Button>
      </div>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (target !== topic.category.id) run({ categoryId: target }, 'Topic moved');
        }}
      >
        <label className="min-w-0 flex-1 basis-40 text-sm">
          Move to category
          <select value={target} onChange={(event) => setTarget(event.target.value)} className={fieldClass}>
            {(categories.data ?? [topic.category]).map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" variant="secondary" isDisabled={busy || target === topic.category.id}>
          Move
        </Button>
      </form>
    </section>
  );
}

/** The reply id in `#reply-{id}`, if the address names one. */
const replyInHash = (hash: string) => /^reply-([\w-]+)$/u.exec(hash)?.[1];

export function TopicPage() {
  const { id } = useParams({ strict: false }) as { id: string };
  // A topic of its own each: moving from one topic to another starts its read position and quote afresh.
  return <TopicView key={id} id={id} />;
}

function TopicView({ id }: { id: string }) {
  const hash = useRouterState({ select: (state) => state.location.hash });
  const { data: viewer } = useCurrentUser();
  const { list, topic, replies } = useTopic(id);
  const topicCommands = useTopicCommands(id);
  const replyCommands = useReplyCommands(id);
  const { toast } = useToast();
  const composer = useRef<WritingBoxHandle>(null);
  const [replyTo, setReplyTo] = useState<Reply | null>(null);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const openingPost = useRef<HTMLElement>(null);
  const [editingTopic, setEditingTopic] = useState(false);
  const navigate = useNavigate();

  // The reply the address names: load pages until it is on the page, then scroll to it and mark it for a moment.
  const wanted = replyInHash(hash);
  const scrolledTo = useRef<string | null>(null);
  useEffect(() => {
    if (!wanted || scrolledTo.current === wanted || !list.data) return;
    if (!replies.some((reply) => reply.id === wanted)) {
      if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
      return;
    }
    scrolledTo.current = wanted;
    const target = document.getElementById(`reply-${wanted}`);
    target?.scrollIntoView({
      block: 'center',
      behavior: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth',
    });
    target?.focus({ preventScroll: true });
    setHighlighted(wanted);
    const timer = setTimeout(() => setHighlighted(null), 4000);
    return () => clearTimeout(timer);
  }, [wanted, replies, list]);

  // Read position: the furthest reply the reader has had on screen, recorded once they stop scrolling, and only when
  // it is past where the server says they are (replies are numbered in the topic, 1 for the first).
  const read = topicCommands.read;
  const readUpTo = list.data?.pages[0]?.topic.readUpTo ?? null;
  const furthest = useRef<{ number: number; id: string } | null>(null);
  const recorded = useRef(-1);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const record = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const seen = furthest.current;
      if (!seen || seen.number <= Math.max(recorded.current, readUpTo ?? -1)) return;
      recorded.current = seen.number;
      read.mutate(seen.id);
    }, READ_DELAY_MS);
  }, [read, readUpTo]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const loaded = list.data !== undefined;
  // The opening post is number 0 (the topic's own id names it), so a topic without replies is read as well.
  const numbers = [`${id}:0`, ...replies.map((reply) => `${reply.id}:${reply.number}`)].join(' ');
  useEffect(() => {
    if (!loaded) return;
    const numberOf = new Map(numbers.split(' ').map((entry) => entry.split(':') as [string, string]));
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const id = (entry.target as HTMLElement).dataset.replyId;
        const number = Number(id && numberOf.get(id));
        if (entry.isIntersecting && id && number > (furthest.current?.number ?? -1)) furthest.current = { number, id };
      }
      record();
    });
    for (const element of document.querySelectorAll<HTMLElement>('[data-reply-id]')) observer.observe(element);
    return () => observer.disconnect();
  }, [numbers, record, loaded]);

  if (!viewer) return null;
  if (list.isPending)
    return (
      <p role="status" className="py-8 text-slate-600 dark:text-slate-400">
        Loading the topic...
      </p>
    );
  if (list.isError || !topic)
    return (
      <div className="py-16 text-center">
        <h1 className="text-2xl font-bold">Topic not found</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">This topic does not exist or was removed.</p>
        <Link to="/discussions" className="mt-4 inline-block font-medium text-brand-700 underline dark:text-amber-accent">
          Back to Discussions
        </Link>
      </div>
    );

  const canReply = !topic.locked && viewer.role !== 'subscriber';
  /** Quoting a reply answers it (`replyTo`); quoting the opening post answers the topic. */
  const quote = (source: Topic | Reply, selected: string, answering: Reply | null) => {
    setReplyTo(answering);
    composer.current?.replace((draft) =>
      withQuote(draft, quoteOf(source.author.name, selected || htmlToText(source.content, { withQuotes: false }))),
    );
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_16rem]">
      <div className="min-w-0">
        <nav aria-label="Breadcrumb" className="mb-2 text-sm">
          <Link to="/discussions" className="font-medium text-brand-700 underline dark:text-amber-accent">
            Discussions
          </Link>
          <span aria-hidden="true" className="mx-2 text-slate-400">
            /
          </span>
          <Link
            to="/discussions"
            search={{ category: topic.category.id }}
            className="rounded-sm outline-none focus-visible:ring-2 focus-visible:ring-amber-500"
          >
            <CategoryMark name={topic.category.name} color={topic.category.color} className="text-sm font-medium" />
          </Link>
        </nav>
        <h1 className="text-2xl font-bold break-words md:text-3xl">{topic.title}</h1>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          {topic.pinned && <Badge variant="default">Pinned</Badge>}
          {topic.locked && <Badge variant="outline">Closed</Badge>}
          {topic.tags.map((tag) => (
            <Link
              key={tag}
              to="/discussions"
              search={{ tag }}
              className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700 outline-none hover:bg-slate-200 focus-visible:ring-2 focus-visible:ring-amber-500 dark:bg-slate-800 dark:text-slate-300"
            >
              #{tag}
            </Link>
          ))}
          {canReply && (
            <Button variant="secondary" onPress={() => composer.current?.focus()} className="ml-auto">
              Jump to reply
            </Button>
          )}
        </div>

        <div className="mt-4 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
          <article
            ref={openingPost}
            data-reply-id={topic.id}
            aria-label={`Topic by ${topic.author.name}`}
            className="flex gap-3 px-2 py-4 sm:px-4"
          >
            <MemberLink id={topic.author.id} name={topic.author.name} decorative>
              <Avatar name={topic.author.name} src={topic.author.avatar} size="md" />
            </MemberLink>
            <div className="min-w-0 flex-1">
              <Byline author={topic.author} at={topic.createdAt}>
                {topic.editedAt && <span className="text-xs text-slate-600 dark:text-slate-400">edited</span>}
              </Byline>
              {editingTopic ? (
                <EditBox
                  label="Edit your opening post"
                  content={topic.content}
                  onClose={() => setEditingTopic(false)}
                  onSave={(content) => topicCommands.edit.mutateAsync(content)}
                />
              ) : (
                <div className="mt-1">
                  <PostText content={topic.content} />
                </div>
              )}
              <div className="-ml-3 mt-1 flex flex-wrap gap-1">
                {canReply && <QuoteButton within={openingPost} onQuote={(selected) => quote(topic, selected, null)} />}
                {viewer.id === topic.author.id && !editingTopic && (
                  <button type="button" onClick={() => setEditingTopic(true)} className={action}>
                    Edit
                  </button>
                )}
                {viewer.id !== topic.author.id && (
                  <ReasonDialog
                    label="Report"
                    triggerName="Report topic"
                    triggerClassName={action}
                    title="Report this topic?"
                    description="Staff will look at it. Tell them what is wrong, if you like: only staff see it."
                    fieldLabel="What is wrong with it"
                    confirmLabel="Report topic"
                    onConfirm={(reason) =>
                      topicCommands.report.mutateAsync(reason).then(
                        () => toast({ title: 'Topic reported', description: 'Thank you. Staff will review it.' }),
                        (error: unknown) => {
                          toast({ title: 'Error', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
                          throw error;
                        },
                      )
                    }
                  />
                )}
              </div>
            </div>
          </article>
          <section aria-label={`${topic.replyCount} ${topic.replyCount === 1 ? 'reply' : 'replies'}`}>
            {replies.length === 0 ? (
              <p className="px-4 py-6 text-sm text-slate-600 dark:text-slate-400">No replies yet.</p>
            ) : (
              <ol className="divide-y divide-slate-100 dark:divide-slate-800">
                {replies.map((reply) => (
                  <li key={reply.id}>
                    <ReplyItem
                      reply={reply}
                      viewer={viewer}
                      canReply={canReply}
                      highlighted={highlighted === reply.id}
                      commands={replyCommands}
                      onQuote={(reply, selected) => quote(reply, selected, reply)}
                    />
                  </li>
                ))}
              </ol>
            )}
          </section>
        </div>
        {list.hasNextPage && (
          <div className="mt-4 flex justify-center">
            <Button variant="secondary" onPress={() => void list.fetchNextPage()} isDisabled={list.isFetchingNextPage}>
              {list.isFetchingNextPage ? 'Loading...' : 'Load more replies'}
            </Button>
          </div>
        )}

        <section
          aria-label="Your reply"
          className="mt-6 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
        >
          {topic.locked ? (
            <p className="text-center font-medium text-slate-700 dark:text-slate-300">
              This topic is closed. New replies are not accepted.
            </p>
          ) : viewer.role === 'subscriber' ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">Subscribers can read discussions but not reply.</p>
          ) : (
            <>
              {replyTo && (
                <p className="mb-2 flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
                  Replying to {replyTo.author.name}
                  <button type="button" onClick={() => setReplyTo(null)} className={action}>
                    Not a reply to them
                  </button>
                </p>
              )}
              <DiscussionWritingBox
                ref={composer}
                label="Write a reply"
                placeholder="Add to the conversation. Type @ to mention a member."
                submitLabel="Reply"
                hint="Ctrl+Enter sends. Select words in a reply before Quote to quote only them."
                onSubmit={async (content) => {
                  const posted = await replyCommands.write.mutateAsync(replyTo ? { content, replyTo: replyTo.id } : { content });
                  setReplyTo(null);
                  // To the new reply, loading the pages before it when the reader had not (a long topic).
                  void navigate({ to: '.', hash: `reply-${posted.id}`, replace: true });
                }}
              />
            </>
          )}
        </section>
      </div>

      <aside className="space-y-6 lg:sticky lg:top-20 lg:self-start">
        <div className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
          <WatchControl topic={topic} commands={topicCommands} />
        </div>
        {isStaff(viewer.role) && (
          <div className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
            <StaffControls key={topic.category.id} topic={topic} commands={topicCommands} />
          </div>
        )}
      </aside>
    </div>
  );
}
