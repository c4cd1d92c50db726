/**
 * The signed-in shell: the sidebar (collapsible to icons, remembered in the
 * `sidebar_state` cookie; an off-canvas drawer below 768px; Ctrl/Cmd+B toggles
 * it) and the content area.
 */
import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';
import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { Dialog, Modal, ModalOverlay } from 'react-aria-components';
import { atom, useAtom } from 'jotai';
import { Avatar } from '../../components/ui/avatar';
import { Icon } from '../../components/ui/icon';
import { RoleBadge } from '../../components/ui/badge';
import { isStaff, type CurrentUser } from '../../lib/current-user';
import { useSignOut } from '../auth/sign-out';
import { useEventStats } from '../events/api';
import { useAdminStats } from '../admin/api';
import { useUnreadNotifications } from '../notifications/api';
import { useUnreadTopics } from '../discussions/api';
import { useMailbox } from '../mailbox/api';
import { MAIN_CONTENT_ID, SkipLink } from '../../components/skip-link';
import { useCommunityStats } from '../newsfeed/api';
import { useTheme } from '../../lib/theme';
import { useNarrowScreen } from '../../lib/use-narrow-screen';
import {
  ADMIN_NAV,
  MAILBOX_NAV,
  MAIN_NAV,
  NAV_GROUPS_KEY,
  SETTINGS_NAV,
  SIDEBAR_COOKIE,
  SIDEBAR_COOKIE_MAX_AGE,
  activeEntry,
  type NavGroup,
  type NavItem,
} from './nav';

function readExpanded(): boolean {
  const match = document.cookie.match(new RegExp(`(?:^|; )${SIDEBAR_COOKIE}=([^;]*)`));
  return match ? match[1] !== 'false' : true;
}

const figure = (value: number | undefined) => (value === undefined ? '—' : value.toLocaleString('en-US'));

function CommunityStatsBlock() {
  const stats = useCommunityStats();
  return (
    <section aria-labelledby="community-stats" className="mx-3 rounded-lg bg-brand-50 p-3 text-sm dark:bg-slate-800">
      <h2 id="community-stats" className="mb-2 font-semibold">
        Community Stats
      </h2>
      <dl className="space-y-1">
        <div className="flex justify-between">
          <dt>Members Online</dt>
          <dd className="font-semibold text-green-700 dark:text-green-400">{figure(stats.data?.onlineNow)}</dd>
        </div>
        <div className="flex justify-between">
          <dt>Total Posts</dt>
          <dd className="font-semibold">{figure(stats.data?.totalPosts)}</dd>
        </div>
        <div className="flex justify-between">
          <dt>This Week</dt>
          <dd className="font-semibold text-brand-600 dark:text-amber-accent">
            {stats.data ? `+${figure(stats.data.postsThisWeek)}` : '—'}
          </dd>
        </div>
      </dl>
    </section>
  );
}

function NavLink({
  item,
  collapsed,
  badge,
  badgeTone = 'neutral',
  active,
}: {
  item: NavItem;
  collapsed: boolean;
  badge?: number | undefined;
  badgeTone?: 'neutral' | 'alert';
  active: boolean;
}) {
  const count = badge;
  return (
    <Link
      to={item.to}
      // The router would also mark /admin current on /admin/users; which entry is current is decided once, by activeEntry.
      activeOptions={{ exact: true }}
      aria-current={active ? 'page' : undefined}
      title={collapsed ? item.title : undefined}
      className={`flex min-h-11 items-center gap-3 rounded-md px-3 text-sm pointer-fine:min-h-9 font-medium outline-none focus-visible:ring-2 focus-visible:ring-amber-500 ${
        active
          ? 'bg-brand-600 text-white dark:bg-amber-accent dark:text-slate-950'
          : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800'
      }`}
    >
      <Icon name={item.icon} className="size-5 shrink-0" />
      <span className={collapsed ? 'sr-only' : 'flex-1 truncate'}>{item.title}</span>
      {count !== undefined && count > 0 && (
        <span
          role="img"
          aria-label={`${count} ${badgeTone === 'alert' ? 'pending' : 'new'}`}
          className={`rounded-full px-2 text-xs font-semibold ${collapsed ? 'absolute ml-5 -mt-5' : ''} ${
            badgeTone === 'alert' ? 'bg-red-600 text-white' : 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-100'
          }`}
        >
          {count}
        </span>
      )}
    </Link>
  );
}

/** The member's unread notifications, live. */
function UnreadBadge({ children }: { children: (unread: number) => ReactNode }) {
  const unread = useUnreadNotifications(true);
  return <>{children(unread.data ?? 0)}</>;
}

/** The replies the member has not read in the discussions, live (the seed's fixed badge, made real). */
function UnreadTopicsBadge({ children }: { children: (unread: number) => ReactNode }) {
  const unread = useUnreadTopics();
  return <>{children(unread.data ?? 0)}</>;
}

/** On a phone the sidebar is a closed drawer: the top bar keeps the unread count in sight, and leads to the notifications. */
function TopBarNotifications({ unread, active }: { unread: number; active: boolean }) {
  return (
    <Link
      to="/notifications"
      aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
      aria-current={active ? 'page' : undefined}
      className="relative ml-auto inline-flex min-h-11 min-w-11 items-center justify-center rounded-md outline-none hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-amber-500 dark:hover:bg-slate-800"
    >
      <Icon name="bell" className="size-6" />
      {unread > 0 && (
        <span
          aria-hidden="true"
          className="absolute top-0.5 right-0.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs leading-5 font-semibold text-white"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  );
}

/** The dashboard's queues: posts awaiting approval and reported content. */
function DashboardBadge({ children }: { children: (waiting: number) => ReactNode }) {
  const stats = useAdminStats();
  return <>{children((stats.data?.pendingApproval ?? 0) + (stats.data?.reportedContent ?? 0))}</>;
}

function PendingEventsBadge({ children }: { children: (pending: number | undefined) => ReactNode }) {
  const stats = useEventStats();
  return <>{children(stats.data?.pending ?? 0)}</>;
}

/** Shown to admins only when the development mailbox answers (see MAILBOX_NAV); its list is the one the mailbox page shows. */
function MailboxNavEntry({ collapsed, active }: { collapsed: boolean; active: boolean }) {
  const mailbox = useMailbox();
  if (!mailbox.isSuccess) return null;
  return (
    <li>
      <NavLink item={MAILBOX_NAV} collapsed={collapsed} active={active} />
    </li>
  );
}

function readOpenGroups(): Partial<Record<NavGroup, boolean>> {
  try {
    return JSON.parse(localStorage.getItem(NAV_GROUPS_KEY) ?? '{}') as Partial<Record<NavGroup, boolean>>;
  } catch {
    return {};
  }
}
const openGroupsAtom = atom(readOpenGroups());

/**
 * A group of entries under a heading that folds it away, so every entry a role has stays in reach at 1366×768
 * and on a phone. Until the member chooses, a group is open, except Administration in the phone drawer, which
 * opens there by default only when it holds the current page; the choice is remembered in localStorage.
 */
function NavGroupSection({
  group,
  title,
  collapsed,
  inDrawer,
  holdsCurrentPage,
  children,
}: {
  group: NavGroup;
  title: string;
  collapsed: boolean;
  inDrawer: boolean;
  holdsCurrentPage: boolean;
  children: ReactNode;
}) {
  const [openGroups, setOpenGroups] = useAtom(openGroupsAtom);
  const listId = useId();
  const open = collapsed || (openGroups[group] ?? (holdsCurrentPage || !inDrawer || group !== 'admin'));
  const toggle = () => {
    const next = { ...openGroups, [group]: !open };
    setOpenGroups(next);
    localStorage.setItem(NAV_GROUPS_KEY, JSON.stringify(next));
  };
  return (
    <div>
      {collapsed ? (
        <h2 className="sr-only">{title}</h2>
      ) : (
        <h2>
          <button
            type="button"
            aria-expanded={open}
            aria-controls={listId}
            onClick={toggle}
            className="flex min-h-11 w-full items-center justify-between rounded-md px-3 text-xs font-semibold tracking-wide text-slate-600 uppercase outline-none hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-amber-500 pointer-fine:min-h-7 dark:text-slate-400 dark:hover:bg-slate-800"
          >
            {title}
            <Icon name="chevronLeft" className={`size-4 transition-transform ${open ? '-rotate-90' : 'rotate-180'}`} />
          </button>
        </h2>
      )}
      <ul id={listId} hidden={!open}>
        {children}
      </ul>
    </div>
  );
}

function SidebarContent({
  user,
  collapsed,
  onToggle,
  inDrawer = false,
}: {
  user: CurrentUser;
  collapsed: boolean;
  onToggle?: () => void;
  inDrawer?: boolean;
}) {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const current = activeEntry([...MAIN_NAV, ...SETTINGS_NAV, ...ADMIN_NAV, MAILBOX_NAV], pathname);
  const { theme, toggle } = useTheme();
  const navigate = useNavigate();
  const signedOut = useSignOut();
  const signOut = async () => {
    await signedOut();
    await navigate({ to: '/' });
  };

  return (
    <div className="flex h-full flex-col gap-2 py-2">
      <div className={`flex items-center gap-2 px-3 ${collapsed ? 'justify-center' : ''}`}>
        <span
          aria-hidden="true"
          className="flex size-9 shrink-0 items-center justify-center rounded-md bg-brand-600 text-white dark:bg-amber-accent dark:text-slate-950"
        >
          <Icon name="radio" />
        </span>
        <div className={collapsed ? 'sr-only' : 'min-w-0'}>
          <p className="font-bold leading-tight">Broadcast History</p>
          <p className="text-xs text-amber-700 dark:text-amber-accent">Premium Community</p>
        </div>
        {onToggle && !collapsed && (
          <button
            type="button"
            onClick={onToggle}
            aria-label="Collapse sidebar"
            className="ml-auto hidden min-h-11 min-w-11 shrink-0 rounded-md pointer-fine:min-h-9 pointer-fine:min-w-9 hover:bg-slate-100 md:block dark:hover:bg-slate-800"
          >
            <Icon name="chevronLeft" className="mx-auto size-5" />
          </button>
        )}
      </div>

      <div className="min-h-0 flex-1 space-y-3 overflow-y-auto">
        <nav aria-label="Main" className="space-y-2 px-2">
          <ul>
            {MAIN_NAV.map((item) => (
              <li key={item.to}>
                {item.to === '/notifications' ? (
                  <UnreadBadge>
                    {(unread) => <NavLink item={item} collapsed={collapsed} active={item === current} badge={unread} />}
                  </UnreadBadge>
                ) : item.to === '/discussions' ? (
                  <UnreadTopicsBadge>
                    {(unread) => <NavLink item={item} collapsed={collapsed} active={item === current} badge={unread} />}
                  </UnreadTopicsBadge>
                ) : (
                  <NavLink item={item} collapsed={collapsed} active={item === current} />
                )}
              </li>
            ))}
          </ul>
          <NavGroupSection
            group="settings"
            title="Settings"
            collapsed={collapsed}
            inDrawer={inDrawer}
            holdsCurrentPage={current !== undefined && SETTINGS_NAV.includes(current)}
          >
            {SETTINGS_NAV.map((item) => (
              <li key={item.to}>
                <NavLink item={item} collapsed={collapsed} active={item === current} />
              </li>
            ))}
          </NavGroupSection>
          {isStaff(user.role) && (
            <NavGroupSection
              group="admin"
              title="Administration"
              collapsed={collapsed}
              inDrawer={inDrawer}
              holdsCurrentPage={current !== undefined && [...ADMIN_NAV, MAILBOX_NAV].includes(current)}
            >
              {ADMIN_NAV.map((item) => (
                <li key={item.to}>
                  {item.to === '/events/manage' ? (
                    <PendingEventsBadge>
                      {(pending) => (
                        <NavLink item={item} collapsed={collapsed} active={item === current} badge={pending} badgeTone="alert" />
                      )}
                    </PendingEventsBadge>
                  ) : item.to === '/admin' ? (
                    <DashboardBadge>
                      {(waiting) => (
                        <NavLink item={item} collapsed={collapsed} active={item === current} badge={waiting} badgeTone="alert" />
                      )}
                    </DashboardBadge>
                  ) : (
                    <NavLink item={item} collapsed={collapsed} active={item === current} />
                  )}
                </li>
              ))}
              {user.role === 'admin' && <MailboxNavEntry collapsed={collapsed} active={current === MAILBOX_NAV} />}
            </NavGroupSection>
          )}
        </nav>
        {!collapsed && <CommunityStatsBlock />}
      </div>

      <footer
        className={`flex items-center gap-2 border-t border-slate-200 px-3 pt-3 dark:border-slate-800 ${collapsed ? 'flex-col' : ''}`}
      >
        <Link
          to="/account"
          title="Your account"
          className={`flex min-h-11 items-center gap-2 rounded-md p-1 outline-none hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-amber-500 dark:hover:bg-slate-800 ${collapsed ? '' : 'min-w-0 flex-1'}`}
        >
          <Avatar name={user.name} src={user.avatar} size="sm" />
          <div className={collapsed ? 'sr-only' : 'min-w-0 flex-1'}>
            <p className="text-sm leading-tight font-medium break-words">
              <span className="sr-only">Your account: </span>
              {/* A block of its own: the name is one piece of text, measured whole. */}
              <span className="block">{user.name}</span>
            </p>
            <RoleBadge role={user.role} />
          </div>
        </Link>
        <button
          type="button"
          onClick={toggle}
          aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
          className="min-h-11 min-w-11 shrink-0 rounded-md hover:bg-slate-100 pointer-fine:min-h-9 pointer-fine:min-w-9 dark:hover:bg-slate-800"
        >
          <Icon name={theme === 'dark' ? 'sun' : 'moon'} className="mx-auto size-5" />
        </button>
        <button
          type="button"
          onClick={() => void signOut()}
          aria-label="Sign out"
          className="min-h-11 min-w-11 shrink-0 rounded-md pointer-fine:min-h-9 pointer-fine:min-w-9 hover:bg-slate-100 dark:hover:bg-slate-800"
        >
          <Icon name="logout" className="mx-auto size-5" />
        </button>
      </footer>
    </div>
  );
}

export function AppShell({ user, children }: { user: CurrentUser; children: ReactNode }) {
  const mobile = useNarrowScreen();
  const [expanded, setExpanded] = useState(readExpanded);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const pathname = useRouterState({ select: (state) => state.location.pathname });

  const setAndRemember = useCallback((value: boolean) => {
    setExpanded(value);
    document.cookie = `${SIDEBAR_COOKIE}=${value}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; SameSite=Lax`;
  }, []);
  const toggle = useCallback(
    () => (mobile ? setDrawerOpen((open) => !open) : setAndRemember(!expanded)),
    [mobile, expanded, setAndRemember],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === 'b' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);

  useEffect(() => setDrawerOpen(false), [pathname]);

  return (
    <div className="flex min-h-screen">
      <SkipLink />
      {!mobile && (
        <aside
          aria-label="Sidebar"
          data-state={expanded ? 'expanded' : 'collapsed'}
          className={`sticky top-0 h-screen shrink-0 border-r border-slate-200 bg-white transition-[width] dark:border-slate-800 dark:bg-slate-900 ${expanded ? 'w-64' : 'w-12'}`}
        >
          <SidebarContent user={user} collapsed={!expanded} onToggle={toggle} />
        </aside>
      )}
      {mobile && (
        <ModalOverlay isOpen={drawerOpen} onOpenChange={setDrawerOpen} isDismissable className="fixed inset-0 z-40 bg-black/40">
          <Modal className="fixed inset-y-0 left-0 w-72 bg-white shadow-xl dark:bg-slate-900">
            <Dialog aria-label="Navigation" className="h-full outline-none">
              <SidebarContent user={user} collapsed={false} inDrawer />
            </Dialog>
          </Modal>
        </ModalOverlay>
      )}
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex items-center gap-2 border-b border-slate-200 bg-white/90 px-3 py-2 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90">
          <button
            type="button"
            onClick={toggle}
            aria-label="Toggle sidebar"
            aria-expanded={mobile ? drawerOpen : expanded}
            title="Toggle sidebar (Ctrl+B)"
            className="min-h-11 min-w-11 rounded-md hover:bg-slate-100 dark:hover:bg-slate-800"
          >
            <Icon name="menu" className="mx-auto size-5" />
          </button>
          <span className="font-semibold md:hidden">Broadcast History</span>
          {mobile && (
            <UnreadBadge>{(unread) => <TopBarNotifications unread={unread} active={pathname.startsWith('/notifications')} />}</UnreadBadge>
          )}
        </header>
        <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 scroll-mt-16 p-4 outline-none md:p-6">
          {children}
        </main>
      </div>
    </div>
  );
}
