/**
 * The public-site layout: the site's own pages (/about, /privacy, …, /subscribe), a visitor's blog, calendar, blog
 * post and event pages, and one layout of the admin dashboard (/admin-webflow). Every link leads to a real page; Admin
 * is shown to staff only, and a visitor is offered Sign in instead.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useRouterState } from '@tanstack/react-router';
import { isStaff, useCurrentUser } from '../../lib/current-user';
import { FooterLink, SITE_LINKS, SiteFrame } from '../../../shared/public-pages/site-frame';

const HEADER_LINKS = [
  { label: 'Home', to: '/' },
  { label: 'About', to: '/about' },
  { label: 'Community', to: '/' },
  { label: 'Blog', to: '/blog' },
  { label: 'Calendar', to: '/calendar' },
] as const;
const ADMIN_LINK = { label: 'Admin', to: '/admin-webflow' } as const;

const FOOTER_GROUPS = [
  { title: 'Company', links: [SITE_LINKS.about, SITE_LINKS.contact, SITE_LINKS.privacy, SITE_LINKS.terms] },
  { title: 'Community', links: [SITE_LINKS.guidelines, SITE_LINKS.help, SITE_LINKS.support, SITE_LINKS.subscribe] },
  { title: 'Connect', links: [SITE_LINKS.rss, SITE_LINKS.blog, SITE_LINKS.calendar] },
];

export function PublicSiteLayout({ children }: { children: ReactNode }) {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const [menuOpen, setMenuOpen] = useState(false);
  // The layout stays while its pages change (blog, calendar, a post): the phone's menu closes on arrival.
  useEffect(() => setMenuOpen(false), [pathname]);
  const user = useCurrentUser();
  const links = [...HEADER_LINKS, ...(isStaff(user.data?.role) ? [ADMIN_LINK] : [])].map((link) => {
    const active = link.to === pathname;
    return (
      <Link
        key={link.label}
        to={link.to}
        activeOptions={{ exact: true }}
        // A visitor's blog is the server's page (its posts in the HTML), not the app's.
        reloadDocument={link.to === '/blog' && !user.data}
        className={`inline-flex min-h-11 items-center px-2 ${active ? 'underline decoration-2 underline-offset-8' : 'hover:text-amber-300'}`}
        aria-current={active ? 'page' : undefined}
      >
        {link.label}
      </Link>
    );
  });
  if (user.isSuccess && !user.data)
    links.push(
      <Link
        key="sign-in"
        to="/login"
        search={{ redirect: pathname }}
        className="inline-flex min-h-11 items-center px-2 hover:text-amber-300"
      >
        Sign in
      </Link>,
    );
  return (
    <SiteFrame
      barClassName="mx-auto flex max-w-6xl items-center justify-between px-4 py-3"
      bar={
        <>
          <Link to="/" className="font-bold">
            Broadcast History Community
          </Link>
          <nav aria-label="Site" className="hidden gap-2 md:flex">
            {links}
          </nav>
          <button
            type="button"
            className="min-h-11 min-w-11 rounded-md md:hidden"
            aria-label="Menu"
            aria-expanded={menuOpen}
            aria-controls="site-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span aria-hidden="true">Menu</span>
          </button>
        </>
      }
      menu={
        menuOpen && (
          <nav id="site-menu" aria-label="Site menu" className="flex flex-col border-t border-white/20 px-4 py-2 md:hidden">
            {links}
          </nav>
        )
      }
      year={new Date().getFullYear()}
      footer={
        <div className="mx-auto grid max-w-6xl gap-6 px-4 py-8 sm:grid-cols-3">
          {FOOTER_GROUPS.map((group) => (
            <div key={group.title}>
              <h2 className="font-semibold text-white">{group.title}</h2>
              <ul className="mt-2 space-y-1 text-sm">
                {group.links.map((link) => (
                  <li key={link.label}>
                    <FooterLink {...link} />
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      }
    >
      {children}
    </SiteFrame>
  );
}
