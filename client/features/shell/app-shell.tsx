/**
 * The signed-in shell: the sidebar (collapsible to icons, remembered in the
 * `sidebar_state` cookie; an off-canvas drawer below 768px; Ctrl/Cmd+B toggles
 * it) and the content area.
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { Dialog, Modal, ModalOverlay } from 'react-aria-components';
import { Avatar } from '../../components/ui/avatar';
import { Icon } from '../../components/ui/icon';
import { RoleBadge } from '../../components/ui/badge';
import { isStaff, type CurrentUser } from '../../lib/current-user';
import { useSignOut } from '../auth/api';
import { useEventStats } from '../events/api';
import { useMailbox } from '../mailbox/api';
import { useCommunityStats } from '../newsfeed/api';
import { useTheme } from '../../lib/theme';
import { ADMIN_NAV, MAILBOX_NAV, MAIN_NAV, MOBILE_BREAKPOINT, SETTINGS_NAV, SIDEBAR_COOKIE, SIDEBAR_COOKIE_MAX_AGE, isActive, type NavItem } from './nav';

function readExpanded(): boolean {
  const match = document.cookie.match(new RegExp(`(?:^|; )${SIDEBAR_COOKIE}=([^;]*)`));
  return match ? match[1] !== 'false' : true;
}

function useIsMobile() {
  const query = `(max-width: ${MOBILE_BREAKPOINT - 1}px)`;
  const [mobile, setMobile] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const onChange = () => setMobile(list.matches);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, [query]);
  return mobile;
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
          <dd className="font-semibold text-brand-600 dark:text-amber-accent">{stats.data ? `+${figure(stats.data.postsThisWeek)}` : '—'}</dd>
        </div>
      </dl>
    </section>
  );
}

function NavLink({ item, collapsed, badge, badgeTone = 'neutral', pathname }: { item: NavItem; collapsed: boolean; badge?: number | undefined; badgeTone?: 'neutral' | 'alert'; pathname: string }) {
  const active = isActive(item, pathname);
  const count = badge ?? item.badge;
  return (
    <Link
      to={item.to}
      aria-current={active ? 'page' : undefined}
      title={collapsed ? item.title : undefined}
      className={`flex min-h-11 items-center gap-3 rounded-md px-3 text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-amber-500 ${
        active ? 'bg-brand-600 text-white dark:bg-amber-accent dark:text-slate-950' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800'
      }`}
    >
      <Icon name={item.icon} className="size-5 shrink-0" />
      <span className={collapsed ? 'sr-only' : 'flex-1 truncate'}>{item.title}</span>
      {count !== undefined && count > 0 && (
        <span
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

function PendingEventsBadge({ children }: { children: (pending: number | undefined) => ReactNode }) {
  const stats = useEventStats();
  return <>{children(stats.data?.pending ?? 0)}</>;
}

/** Shown to admins only when the development mailbox answers (see MAILBOX_NAV); its list is the one the mailbox page shows. */
function MailboxNavEntry({ collapsed, pathname }: { collapsed: boolean; pathname: string }) {
  const mailbox = useMailbox();
  if (!mailbox.isSuccess) return null;
  return (
    <li>
      <NavLink item={MAILBOX_NAV} collapsed={collapsed} pathname={pathname} />
    </li>
  );
}

function SidebarContent({ user, collapsed, onToggle }: { user: CurrentUser; collapsed: boolean; onToggle?: () => void }) {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const { theme, toggle } = useTheme();
  const navigate = useNavigate();
  const signedOut = useSignOut();
  const signOut = async () => {
    await signedOut();
    await navigate({ to: '/' });
  };

  return (
    <div className="flex h-full flex-col gap-4 py-4">
      <div className={`flex items-center gap-2 px-3 ${collapsed ? 'justify-center' : ''}`}>
        <span aria-hidden="true" className="flex size-9 shrink-0 items-center justify-center rounded-md bg-brand-600 text-white dark:bg-amber-accent dark:text-slate-950">
          <Icon name="radio" />
        </span>
        <div className={collapsed ? 'sr-only' : 'min-w-0'}>
          <p className="truncate font-bold leading-tight">Broadcast History</p>
          <p className="text-xs text-amber-700 dark:text-amber-accent">Premium Community</p>
        </div>
        {onToggle && !collapsed && (
          <button type="button" onClick={onToggle} aria-label="Collapse sidebar" className="ml-auto hidden min-h-11 min-w-11 rounded-md hover:bg-slate-100 md:block dark:hover:bg-slate-800">
            <Icon name="chevronLeft" className="mx-auto size-5" />
          </button>
        )}
      </div>

      <nav aria-label="Main" className="flex-1 space-y-4 overflow-y-auto px-2">
        <ul className="space-y-1">
          {MAIN_NAV.map((item) => (
            <li key={item.to}>
              <NavLink item={item} collapsed={collapsed} pathname={pathname} />
            </li>
          ))}
        </ul>
        <div>
          <h2 className={collapsed ? 'sr-only' : 'px-3 pb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400'}>Settings</h2>
          <ul className="space-y-1">
            {SETTINGS_NAV.map((item) => (
              <li key={item.to}>
                <NavLink item={item} collapsed={collapsed} pathname={pathname} />
              </li>
            ))}
          </ul>
        </div>
        {isStaff(user.role) && (
          <div>
            <h2 className={collapsed ? 'sr-only' : 'px-3 pb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400'}>Administration</h2>
            <ul className="space-y-1">
              {ADMIN_NAV.map((item) => (
                <li key={item.to}>
                  {item.to === '/events/manage' ? (
                    <PendingEventsBadge>{(pending) => <NavLink item={item} collapsed={collapsed} pathname={pathname} badge={pending} badgeTone="alert" />}</PendingEventsBadge>
                  ) : (
                    <NavLink item={item} collapsed={collapsed} pathname={pathname} />
                  )}
                </li>
              ))}
              {user.role === 'admin' && <MailboxNavEntry collapsed={collapsed} pathname={pathname} />}
            </ul>
          </div>
        )}
      </nav>

      {!collapsed && <CommunityStatsBlock />}

      <footer className={`flex items-center gap-2 border-t border-slate-200 px-3 pt-3 dark:border-slate-800 ${collapsed ? 'flex-col' : ''}`}>
        <Avatar name={user.name} src={user.avatar} size="sm" role={user.role} />
        <div className={collapsed ? 'sr-only' : 'min-w-0 flex-1'}>
          <p className="truncate text-sm font-medium">{user.name}</p>
          <RoleBadge role={user.role} />
        </div>
        <button
          type="button"
          onClick={toggle}
          aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
          className="min-h-11 min-w-11 rounded-md hover:bg-slate-100 dark:hover:bg-slate-800"
        >
          <Icon name={theme === 'dark' ? 'sun' : 'moon'} className="mx-auto size-5" />
        </button>
        <button type="button" onClick={() => void signOut()} aria-label="Sign out" className="min-h-11 min-w-11 rounded-md hover:bg-slate-100 dark:hover:bg-slate-800">
          <Icon name="logout" className="mx-auto size-5" />
        </button>
      </footer>
    </div>
  );
}

export function AppShell({ user, children }: { user: CurrentUser; children: ReactNode }) {
  const mobile = useIsMobile();
  const [expanded, setExpanded] = useState(readExpanded);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const pathname = useRouterState({ select: (state) => state.location.pathname });

  const setAndRemember = useCallback((value: boolean) => {
    setExpanded(value);
    document.cookie = `${SIDEBAR_COOKIE}=${value}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; SameSite=Lax`;
  }, []);
  const toggle = useCallback(() => (mobile ? setDrawerOpen((open) => !open) : setAndRemember(!expanded)), [mobile, expanded, setAndRemember]);

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
              <SidebarContent user={user} collapsed={false} />
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
        </header>
        <main id="main" className="flex-1 p-4 md:p-6">
          {children}
        </main>
      </div>
    </div>
  );
}
