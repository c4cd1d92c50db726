/**
 * The routes of spec 2's route table. Public routes (sign-in, unsubscribe)
 * render without the session; the embeds are a page of their own
 * (client/embed.html, served for /embed routes). Every other path waits for the
 * session, shows the landing page when signed out, and the shell when signed
 * in. Pages are split per route so the landing page loads little.
 */
import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react';
import {
  Link,
  Outlet,
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  useNavigate,
  useRouterState,
} from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import * as v from 'valibot';
import { FREQUENCIES, SUBSCRIPTION_TYPES } from '../shared/subscriptions/constants';
import { Spinner } from './components/ui/spinner';
import { Toaster } from './components/ui/toast';
import { useCurrentUser, isStaff, type CurrentUser } from './lib/current-user';
import { resetSocket, useSocketInvalidation } from './lib/socket';
import { handOffPrerendered } from './lib/prerendered';
import { LandingPage } from './features/landing/landing-page';
import { SITE_PAGE_SLUGS } from '../shared/site-pages/schemas';
import type { AuthLinkProps } from './features/auth/auth-card';

const AppShell = lazy(() => import('./features/shell/app-shell').then((m) => ({ default: m.AppShell })));
const PublicSiteLayout = lazy(() => import('./features/shell/public-site-layout').then((m) => ({ default: m.PublicSiteLayout })));
const NotFoundPage = lazy(() => import('./features/placeholders/not-found-page').then((m) => ({ default: m.NotFoundPage })));

function Root() {
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  useSocketInvalidation(queryClient, user.data?.id ?? 'anonymous', Boolean(user.data));
  // The server's HTML of a public page stands for the first page only: once the reader moves on, the app shows.
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const firstPath = useRef(pathname);
  useEffect(() => {
    if (pathname !== firstPath.current) handOffPrerendered();
  }, [pathname]);
  return (
    <>
      <Outlet />
      <Toaster />
    </>
  );
}

/** `visitor`: what a signed-out reader sees instead of the landing page (a public page of the shell's). */
function SignedIn({ children, visitor }: { children: (user: CurrentUser) => ReactNode; visitor?: ReactNode }) {
  const { data: user, isPending, isError } = useCurrentUser();
  if (isPending) return <Spinner label="Loading your session" />;
  if (isError)
    return (
      <p role="alert" className="p-8 text-center">
        The community is not reachable right now. Please refresh the page in a moment.
      </p>
    );
  if (!user) return visitor ?? <LandingPage />;
  return <Suspense fallback={<Spinner />}>{children(user)}</Suspense>;
}

const rootRoute = createRootRoute({
  component: Root,
  notFoundComponent: () => (
    <SignedIn>
      {(user) => (
        <AppShell user={user}>
          <NotFoundPage />
        </AppShell>
      )}
    </SignedIn>
  ),
});

const page = <T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T & string) => lazyRouteComponent(load, name);

const sitePageModule = () => import('./features/site-pages/site-page');
const SitePageView = lazy(() => sitePageModule().then((m) => ({ default: m.SitePageView })));
const SubscribePage = lazy(() => sitePageModule().then((m) => ({ default: m.SubscribePage })));
/** The public-site layout around a page of the site-pages feature. */
const InPublicLayout = ({ children }: { children: ReactNode }) => (
  <Suspense fallback={<Spinner />}>
    <PublicSiteLayout>{children}</PublicSiteLayout>
  </Suspense>
);

/**
 * The sign-in pages within the app (a member who moves there, a visitor who came from another page); a visitor's
 * first page at these addresses is drawn without the app (client/visitor.tsx).
 */
/** Once signed in: the socket reconnects as the member (before the app draws them: the query cache tells it later). */
const goSignedIn = (navigate: ReturnType<typeof useNavigate>) => async (to: string) => {
  resetSocket();
  await navigate({ to });
};
const RouterAuthLink = ({ to, className, children }: AuthLinkProps) => (
  <Link to={to} className={className}>
    {children}
  </Link>
);
const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  // `redirect`: the page to come back to (a path of this site); `error=link`: a used or expired sign-in link;
  // `reset=done`: a new password was just chosen.
  validateSearch: v.object({
    error: v.fallback(v.optional(v.picklist(['link'])), undefined),
    reset: v.fallback(v.optional(v.picklist(['done'])), undefined),
    redirect: v.fallback(v.optional(v.pipe(v.string(), v.regex(/^\/(?![/\\])/u))), undefined),
  }),
  component: lazyRouteComponent(() =>
    import('./features/auth/sign-in-page').then(({ SignInPage }) => ({
      default: function SignInRoute() {
        const search = loginRoute.useSearch();
        const navigate = useNavigate();
        return <SignInPage search={search} go={goSignedIn(navigate)} AuthLink={RouterAuthLink} />;
      },
    })),
  ),
});
const RegisterRoute = lazyRouteComponent(() =>
  import('./features/auth/register-page').then(({ RegisterPage }) => ({
    default: function RegisterRoute() {
      const navigate = useNavigate();
      return <RegisterPage go={goSignedIn(navigate)} AuthLink={RouterAuthLink} />;
    },
  })),
);

const publicRoutes = [
  // The public site's pages: for visitors and members alike, in the public-site layout.
  ...SITE_PAGE_SLUGS.map((slug) =>
    createRoute({
      getParentRoute: () => rootRoute,
      path: `/${slug}`,
      component: () => (
        <InPublicLayout>
          <SitePageView slug={slug} />
        </InPublicLayout>
      ),
    }),
  ),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/subscribe',
    // What the landing page's form carried when sent before its code ran; anything else is left out.
    validateSearch: v.object({
      email: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(320))), undefined),
      type: v.fallback(v.optional(v.picklist(SUBSCRIPTION_TYPES)), undefined),
      frequency: v.fallback(v.optional(v.picklist(FREQUENCIES)), undefined),
    }),
    component: () => (
      <InPublicLayout>
        <SubscribePage />
      </InPublicLayout>
    ),
  }),
  loginRoute,
  createRoute({ getParentRoute: () => rootRoute, path: '/register', component: RegisterRoute }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/forgot-password',
    component: page(() => import('./features/auth/forgot-password-page'), 'ForgotPasswordPage'),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/reset-password/$token',
    component: page(() => import('./features/auth/reset-password-page'), 'ResetPasswordPage'),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/unsubscribe/$token',
    component: page(() => import('./features/subscriptions/unsubscribe-page'), 'UnsubscribePage'),
  }),
  // Without a token the same page says "Invalid Request" (docs/domain/subscriptions.md#unsubscribe: unsubscribe needs a token in the path).
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/unsubscribe',
    component: page(() => import('./features/subscriptions/unsubscribe-page'), 'UnsubscribePage'),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/subscribe/confirm/$token',
    component: page(() => import('./features/subscriptions/confirm-page'), 'ConfirmSubscriptionPage'),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/subscribe/confirmed',
    validateSearch: v.object({ error: v.fallback(v.optional(v.picklist(['link', 'ended'])), undefined) }),
    component: page(() => import('./features/subscriptions/confirmed-page'), 'SubscriptionConfirmedPage'),
  }),
];

/**
 * The shell's pages a visitor reads too, in the public-site layout: the blog's list and the calendar (published posts,
 * public approved events). They stay under the shell's route so that a member moving between them and the newsfeed
 * keeps one shell (a layout route of their own would draw the sidebar anew on each move).
 */
const OPEN_TO_VISITORS = new Set(['/blog', '/calendar']);

const shellRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'shell',
  component: function Shell() {
    const pathname = useRouterState({ select: (state) => state.location.pathname });
    const visitor = OPEN_TO_VISITORS.has(pathname.replace(/\/$/u, '')) ? (
      <InPublicLayout>
        <Outlet />
      </InPublicLayout>
    ) : undefined;
    return (
      <SignedIn visitor={visitor}>
        {(user) => (
          <AppShell user={user}>
            <Outlet />
          </AppShell>
        )}
      </SignedIn>
    );
  },
});

/** Pages a visitor may read too (a published blog post, a public event): in the public layout for them, in the shell for members. */
const publicOrShellRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'public-or-shell',
  component: function PublicOrShell() {
    const { data: user, isPending } = useCurrentUser();
    if (isPending) return <Spinner label="Loading your session" />;
    if (!user)
      return (
        <InPublicLayout>
          <Outlet />
        </InPublicLayout>
      );
    return (
      <Suspense fallback={<Spinner />}>
        <AppShell user={user}>
          <Outlet />
        </AppShell>
      </Suspense>
    );
  },
});
const publicOrShellRoutes = [
  createRoute({
    getParentRoute: () => publicOrShellRoute,
    path: '/blog/$id',
    component: page(() => import('./features/blog/blog-pages'), 'BlogPostPage'),
  }),
  createRoute({
    getParentRoute: () => publicOrShellRoute,
    path: '/events/$id',
    component: page(() => import('./features/events/event-page'), 'EventPage'),
  }),
  createRoute({
    getParentRoute: () => publicOrShellRoute,
    path: '/posts/$id',
    component: page(() => import('./features/newsfeed/post-page'), 'PostPage'),
  }),
];

/** Registered only for admin and staff: everyone else gets the not-found page. */
function StaffOnly({ children }: { children: ReactNode }) {
  const { data: user } = useCurrentUser();
  return isStaff(user?.role) ? children : <NotFoundPage />;
}
/** The dashboard with the blog feature's management in its blog tab. */
const AdminPage = lazy(() =>
  Promise.all([
    import('./features/admin/admin-dashboard'),
    import('./features/blog/blog-management'),
    import('./features/site-pages/site-pages-editor'),
    import('./features/discussions/category-management'),
  ]).then(([admin, blog, pages, discussions]) => ({
    default: () => (
      <admin.AdminDashboard
        blogTab={<blog.BlogManagement />}
        settingsTab={<pages.SitePagesEditor />}
        discussionsTab={<discussions.CategoryManagement />}
      />
    ),
  })),
);
const EventManagementPage = lazy(() => import('./features/events/event-management').then((m) => ({ default: m.EventManagementPage })));
const WidgetsPage = lazy(() => import('./features/embeds/widgets-page').then((m) => ({ default: m.WidgetsPage })));

/** The topic list, filtered by a category (its id) and a tag named in the address, so a filtered list can be linked. */
const discussionsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/discussions',
  validateSearch: v.object({
    category: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(100))), undefined),
    tag: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(100))), undefined),
  }),
  component: lazyRouteComponent(() =>
    import('./features/discussions/discussions-page').then(({ DiscussionsPage }) => ({
      default: function DiscussionsRoute() {
        return <DiscussionsPage search={discussionsRoute.useSearch()} />;
      },
    })),
  ),
});

const shellRoutes = [
  createRoute({
    getParentRoute: () => shellRoute,
    path: '/',
    component: page(() => import('./features/newsfeed/newsfeed-page'), 'NewsfeedPage'),
  }),
  createRoute({ getParentRoute: () => shellRoute, path: '/blog', component: page(() => import('./features/blog/blog-pages'), 'BlogPage') }),
  createRoute({
    getParentRoute: () => shellRoute,
    path: '/blog/tag/$tag',
    component: page(() => import('./features/blog/blog-pages'), 'BlogTagPage'),
  }),
  createRoute({
    getParentRoute: () => shellRoute,
    path: '/calendar',
    component: page(() => import('./features/events/event-pages'), 'CalendarPage'),
  }),
  createRoute({ getParentRoute: () => shellRoute, path: '/admin', component: AdminPage }),
  createRoute({ getParentRoute: () => shellRoute, path: '/admin/$tab', component: AdminPage }),
  createRoute({
    getParentRoute: () => shellRoute,
    path: '/events/manage',
    component: () => (
      <StaffOnly>
        <EventManagementPage />
      </StaffOnly>
    ),
  }),
  // A static segment: it outranks /admin/$tab, so no dashboard tab is shadowed.
  createRoute({
    getParentRoute: () => shellRoute,
    path: '/admin/widgets',
    component: () => (
      <StaffOnly>
        <WidgetsPage />
      </StaffOnly>
    ),
  }),
  createRoute({
    getParentRoute: () => shellRoute,
    path: '/monitoring',
    component: page(() => import('./features/monitoring/monitoring-page'), 'MonitoringPage'),
  }),
  createRoute({
    getParentRoute: () => shellRoute,
    path: '/account',
    // `email`: where an e-mail change link landed (docs/domain/members.md#own-account).
    validateSearch: v.object({ email: v.fallback(v.optional(v.picklist(['changed', 'taken', 'invalid'])), undefined) }),
    component: page(() => import('./features/account/account-page'), 'AccountPage'),
  }),
  createRoute({
    getParentRoute: () => shellRoute,
    path: '/subscription-settings',
    component: page(() => import('./features/subscriptions/settings-page'), 'SubscriptionSettingsPage'),
  }),
  createRoute({
    getParentRoute: () => shellRoute,
    path: '/mailbox',
    component: page(() => import('./features/mailbox/mailbox-page'), 'MailboxPage'),
  }),
  discussionsRoute,
  createRoute({
    getParentRoute: () => shellRoute,
    path: '/discussions/topics/$id',
    component: page(() => import('./features/discussions/topic-page'), 'TopicPage'),
  }),
  createRoute({
    getParentRoute: () => shellRoute,
    path: '/trending',
    component: page(() => import('./features/placeholders/placeholder-pages'), 'TrendingPage'),
  }),
  createRoute({
    getParentRoute: () => shellRoute,
    path: '/members/$id',
    component: page(() => import('./features/members/profile-page'), 'MemberProfilePage'),
  }),
  createRoute({
    getParentRoute: () => shellRoute,
    path: '/bookmarks',
    component: page(() => import('./features/bookmarks/bookmarks-page'), 'BookmarksPage'),
  }),
  createRoute({
    getParentRoute: () => shellRoute,
    path: '/notifications',
    component: page(() => import('./features/notifications/notifications-page'), 'NotificationsPage'),
  }),
];

const webflowRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/admin-webflow',
  component: () => (
    <SignedIn>
      {() => (
        <PublicSiteLayout>
          <AdminPage />
        </PublicSiteLayout>
      )}
    </SignedIn>
  ),
});

const routeTree = rootRoute.addChildren([
  ...publicRoutes,
  shellRoute.addChildren(shellRoutes),
  publicOrShellRoute.addChildren(publicOrShellRoutes),
  webflowRoute,
]);

export const router = createRouter({ routeTree, defaultPreload: 'intent' });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
