/** The sidebar's entries, exactly as the spec lists them. */
import type { IconName } from '../../components/ui/icon';

export interface NavItem {
  to: string;
  title: string;
  icon: IconName;
  exact?: boolean;
}

export const MAIN_NAV: NavItem[] = [
  { to: '/', title: 'Newsfeed', icon: 'newspaper', exact: true },
  { to: '/blog', title: 'Blog', icon: 'pen' },
  { to: '/calendar', title: 'Calendar', icon: 'calendar' },
  { to: '/discussions', title: 'Discussions', icon: 'message' },
  { to: '/trending', title: 'Trending', icon: 'trending' },
  { to: '/bookmarks', title: 'Bookmarks', icon: 'bookmark' },
  { to: '/notifications', title: 'Notifications', icon: 'bell' },
];

export const SETTINGS_NAV: NavItem[] = [{ to: '/subscription-settings', title: 'Subscription Settings', icon: 'mail' }];

export const ADMIN_NAV: NavItem[] = [
  { to: '/admin', title: 'Dashboard', icon: 'shield' },
  { to: '/events/manage', title: 'Event Management', icon: 'calendarCheck' },
  { to: '/admin/users', title: 'User Management', icon: 'users' },
  { to: '/monitoring', title: 'Monitoring', icon: 'activity' },
  { to: '/admin/settings', title: 'Settings', icon: 'settings' },
];

/**
 * The admins' view of the development mailbox. Not one of the spec's Administration
 * entries, so the shell adds it after them, for admins only (the mail holds other
 * people's links), and only where the mailbox exists (no SMTP_URL): with a real
 * relay the route answers 404 and the entry stays hidden.
 */
export const MAILBOX_NAV: NavItem = { to: '/mailbox', title: 'Mailbox', icon: 'mail' };

/** An entry matches a path that starts with its route; the Newsfeed only exactly "/". */
function matches(item: NavItem, pathname: string): boolean {
  if (item.exact) return pathname === item.to;
  return pathname === item.to || pathname.startsWith(`${item.to}/`);
}

/**
 * The one entry a path belongs to: the longest route that matches it, so /admin/users lights
 * User Management and not Dashboard as well.
 */
export function activeEntry(items: NavItem[], pathname: string): NavItem | undefined {
  return items.filter((item) => matches(item, pathname)).sort((a, b) => b.to.length - a.to.length)[0];
}

/** The sidebar's groups below the main entries; each folds away, and the choice is remembered here. */
export type NavGroup = 'settings' | 'admin';
export const NAV_GROUPS_KEY = 'sidebar_groups';

export const SIDEBAR_COOKIE = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;
