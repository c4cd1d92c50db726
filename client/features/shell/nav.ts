/** The sidebar's entries, exactly as the spec lists them. */
import type { IconName } from '../../components/ui/icon';

export interface NavItem {
  to: string;
  title: string;
  icon: IconName;
  badge?: number;
  exact?: boolean;
}

export const MAIN_NAV: NavItem[] = [
  { to: '/', title: 'Newsfeed', icon: 'newspaper', exact: true },
  { to: '/blog', title: 'Blog', icon: 'pen' },
  { to: '/calendar', title: 'Calendar', icon: 'calendar' },
  { to: '/discussions', title: 'Discussions', icon: 'message', badge: 12 },
  { to: '/trending', title: 'Trending', icon: 'trending' },
  { to: '/bookmarks', title: 'Bookmarks', icon: 'bookmark' },
  { to: '/notifications', title: 'Notifications', icon: 'bell', badge: 3 },
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

/** An entry is active when the path starts with its route; the Newsfeed only on exactly "/". */
export function isActive(item: NavItem, pathname: string): boolean {
  if (item.exact) return pathname === item.to;
  return pathname === item.to || pathname.startsWith(`${item.to}/`);
}

export const SIDEBAR_COOKIE = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;
export const MOBILE_BREAKPOINT = 768;
