/** /members/{id}: a member's profile, with their newest posts in the feed and the events they organise. */
import type { ReactNode } from 'react';
import { Link, useParams } from '@tanstack/react-router';
import type { MemberProfile } from '../../../shared/members/profile';
import { Avatar } from '../../components/ui/avatar';
import { RoleBadge } from '../../components/ui/badge';
import { EmptyState } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api';
import { useCurrentUser } from '../../lib/current-user';
import { relativeTime } from '../../lib/relative-time';
import { useMemberProfile } from './api';

const monthYear = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
const eventDate = (iso: string) =>
  new Date(iso).toLocaleString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

const card = 'rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900';

/** One list of the profile under its heading (`id` names the heading), or what it says while empty. */
function ProfileSection({
  id,
  title,
  isEmpty,
  empty,
  label,
  children,
}: {
  id: string;
  title: string;
  isEmpty: boolean;
  empty: ReactNode;
  /** The list's accessible name. */
  label: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {isEmpty ? (
        empty
      ) : (
        <ul aria-label={label} className="space-y-2">
          {children}
        </ul>
      )}
    </section>
  );
}

function Posts({ profile }: { profile: MemberProfile }) {
  return (
    <ProfileSection
      id="profile-posts"
      title="Recent posts"
      isEmpty={profile.posts.length === 0}
      empty={<EmptyState title="No posts yet">{profile.name} has not posted in the feed yet.</EmptyState>}
      label={`Posts by ${profile.name}`}
    >
      {profile.posts.map((post) => (
        <li key={post.id} className={card}>
          <a href={`/posts/${post.id}`} className="block break-words whitespace-pre-line hover:underline">
            {post.excerpt}
          </a>
          <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
            <time dateTime={post.createdAt} title={new Date(post.createdAt).toLocaleString()}>
              {relativeTime(post.createdAt)}
            </time>{' '}
            · {count(post.likes, 'like')} · {count(post.comments, 'comment')}
          </p>
        </li>
      ))}
    </ProfileSection>
  );
}

function Events({ profile }: { profile: MemberProfile }) {
  const now = Date.now();
  return (
    <ProfileSection
      id="profile-events"
      title="Events organised"
      isEmpty={profile.events.length === 0}
      empty={<EmptyState title="No events yet">{profile.name} has not organised a public event.</EmptyState>}
      label={`Events organised by ${profile.name}`}
    >
      {profile.events.map((event) => {
        const past = Date.parse(event.startsAt) < now;
        return (
          <li key={event.id} className={card}>
            <Link to="/events/$id" params={{ id: event.id }} className="font-semibold break-words hover:underline">
              {event.title}
            </Link>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              {past && <span className="mr-1 font-medium">Past ·</span>}
              <time dateTime={event.startsAt}>{eventDate(event.startsAt)}</time>
              {event.location && <> · {event.location}</>}
            </p>
          </li>
        );
      })}
    </ProfileSection>
  );
}

export function MemberProfilePage() {
  const { id } = useParams({ from: '/shell/members/$id' });
  const profile = useMemberProfile(id);
  const { data: viewer } = useCurrentUser();
  if (profile.isPending) return <Spinner label="Loading the profile" />;
  if (profile.isError) {
    const missing = profile.error instanceof ApiError && profile.error.status === 404;
    return (
      <div className="mx-auto max-w-3xl py-12 text-center">
        <h1 className="text-2xl font-bold">{missing ? 'Member not found' : 'The profile could not be loaded'}</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          {missing ? 'This member does not exist or is no longer part of the community.' : 'Please refresh the page in a moment.'}
        </p>
        <Link to="/" className="mt-4 inline-block underline">
          Back to the newsfeed
        </Link>
      </div>
    );
  }
  const member = profile.data;
  const own = viewer?.id === member.id;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <header className={`${card} flex flex-col items-center gap-4 text-center sm:flex-row sm:items-start sm:text-left`}>
        <Avatar name={member.name} src={member.avatar} size="lg" />
        <div className="min-w-0 flex-1 space-y-2">
          <div className="flex flex-wrap items-center justify-center gap-2 sm:justify-start">
            <h1 className="text-2xl font-bold break-words">{member.name}</h1>
            <RoleBadge role={member.role} />
          </div>
          <p className="text-sm text-slate-600 dark:text-slate-400">Joined {monthYear(member.joinedAt)}</p>
          {member.bio ? (
            <p className="break-words whitespace-pre-line">{member.bio}</p>
          ) : (
            <p className="text-sm text-slate-500 italic dark:text-slate-400">No bio yet.</p>
          )}
          {own && (
            <Link
              to="/account"
              className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline dark:text-amber-accent"
            >
              Edit your profile
            </Link>
          )}
        </div>
      </header>
      <Posts profile={member} />
      <Events profile={member} />
    </div>
  );
}
