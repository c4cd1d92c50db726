/** A page of the public site (/about, /privacy, …) for visitors and members alike; the route puts it in the public-site layout. */
import { useEffect } from 'react';
import { useSearch } from '@tanstack/react-router';
import type { SitePageSlug } from '../../../shared/site-pages/schemas';
import { GuestSubscribeForm } from '../../components/guest-subscribe-form';
import { useCurrentUser } from '../../lib/current-user';
import { useSitePage } from './api';

const SITE_NAME = 'Broadcast History Community';

export function SitePageView({ slug }: { slug: SitePageSlug }) {
  const page = useSitePage(slug);
  useEffect(() => {
    if (page.data) document.title = `${page.data.title} | ${SITE_NAME}`;
  }, [page.data]);
  return (
    <article className="mx-auto max-w-3xl py-4">
      {page.isPending ? (
        <p role="status">Loading...</p>
      ) : page.isError ? (
        <p role="alert">This page could not be loaded. Please refresh the page in a moment.</p>
      ) : (
        <>
          <h1 className="text-3xl font-bold">{page.data.title}</h1>
          {page.data.updatedAt && (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
              Last updated{' '}
              <time dateTime={page.data.updatedAt}>{new Date(page.data.updatedAt).toLocaleDateString('en-US', { dateStyle: 'long' })}</time>
            </p>
          )}
          {/* Rendered from Markdown and sanitised on the server when an admin saved it. */}
          <div className="blog-content mt-6 space-y-4 leading-relaxed" dangerouslySetInnerHTML={{ __html: page.data.html }} />
        </>
      )}
    </article>
  );
}

/**
 * /subscribe: e-mail updates for anyone; a signed-in member's own address is filled in and becomes their subscription.
 * `?email=&type=&frequency=` fill the form: the landing page's form sends them here when it is sent before its code ran.
 */
export function SubscribePage() {
  const user = useCurrentUser();
  const asked = useSearch({ from: '/subscribe' });
  useEffect(() => {
    document.title = `Get updates by e-mail | ${SITE_NAME}`;
  }, []);
  return (
    <div className="mx-auto max-w-3xl rounded-xl bg-gradient-to-b from-brand-900 to-slate-900 p-4 text-white sm:p-6">
      {user.isPending ? (
        <p role="status">Loading...</p>
      ) : (
        <GuestSubscribeForm
          key={user.data?.email ?? ''}
          className="mt-0"
          heading="h1"
          initialEmail={user.data?.email ?? asked.email ?? ''}
          initialSubscriptionType={asked.type}
          initialFrequency={asked.frequency}
        />
      )}
      <p className="mt-4 text-sm text-slate-200">
        Read how we use your address in the{' '}
        <a href="/privacy" className="font-medium text-amber-200 underline">
          privacy notice
        </a>
        .
      </p>
    </div>
  );
}
