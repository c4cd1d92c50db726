/**
 * A visitor's public page (the landing page, a blog post, a page of the blog or of a tag, an event): the server
 * sent it rendered from its props (server/public-pages/pages.ts), and here the same view (shared/public-pages/views.tsx)
 * hydrates it with the same props, read from the page, so the first paint is the server's and nothing is drawn
 * anew (docs/domain/shell.md#public-pages). No router, shell or socket: its links are plain ones. Once hydrated,
 * the page gains what only a browser does: the subscribe form's request, a post's sharing and comments, an event's
 * time in the reader's own zone. The blog's pages hydrate when the reader reads on (client/main.tsx).
 */
import { StrictMode, Suspense, lazy, useEffect, useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from './lib/query-client';
import { GuestSubscribeForm } from './components/guest-subscribe-form';
import { LANDING_SUBSCRIBE_ID, PublicPageView } from '../shared/public-pages/views';
import { PUBLIC_PAGE_PROPS_ID, PUBLIC_PAGE_ROOT_ID, type PublicPageProps } from '../shared/public-pages/props';
import { formatEventTime } from '../shared/events/event-times';

const PostComments = lazy(() => import('./features/blog/post-comments').then((m) => ({ default: m.PostComments })));

/** The props the server rendered the page from; null on any other page. */
export function readPublicPageProps(): PublicPageProps | null {
  const text = document.getElementById(PUBLIC_PAGE_PROPS_ID)?.textContent;
  return text ? (JSON.parse(text) as PublicPageProps) : null;
}

export function PublicPage({ props }: { props: PublicPageProps }) {
  // The first render is the server's (same props, same markup); what differs in a browser comes after it.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  let shown = props;
  if (props.page === 'event' && hydrated) {
    const { event } = props;
    const readerTimeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    shown = { ...props, event: { ...event, when: formatEventTime(event, { timeZone: event.timeZone, readerTimeZone }) } };
  }
  return (
    <PublicPageView
      props={shown}
      slots={{
        subscribe: <GuestSubscribeForm id={LANDING_SUBSCRIBE_ID} />,
        postEnd:
          // A post hydrates once the reader reads on (client/main.tsx): its comments follow at once.
          props.page === 'blog-post' && hydrated ? (
            <Suspense fallback={null}>
              <PostComments post={props.post} />
            </Suspense>
          ) : undefined,
      }}
    />
  );
}

let root: Root | null = null;

/** Hydrate the server's page; false when there is none (a member's page: the app's). */
export function hydratePublicPage(): boolean {
  const props = readPublicPageProps();
  const container = document.getElementById(PUBLIC_PAGE_ROOT_ID);
  if (!props || !container) return false;
  root = hydrateRoot(
    container,
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <PublicPage props={props} />
      </QueryClientProvider>
    </StrictMode>,
    {
      // A page the browser drew otherwise than the server is a fault of the one markup: said in the console, where
      // the browser tests look (tests/browser/public-pages.browser.ts).
      onRecoverableError: (error) => console.error('The public page did not hydrate as the server rendered it:', error),
    },
  );
  return true;
}

/** The app takes over instead (a member after all): the hydrated page goes. */
export function leavePublicPage() {
  root?.unmount();
  root = null;
  document.getElementById(PUBLIC_PAGE_ROOT_ID)?.remove();
  document.getElementById(PUBLIC_PAGE_PROPS_ID)?.remove();
  document.body.removeAttribute('data-prerendered');
}
