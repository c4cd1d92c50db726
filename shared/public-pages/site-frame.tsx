/**
 * The public site's frame, one markup for the server's public pages (views.tsx) and the app's public-site layout
 * (client/features/shell/public-site-layout.tsx): the skip link, the header, the page's main content (the skip
 * link's target), then the footer's links over the copyright line. Plain markup, no browser-only imports: the
 * server renders it too.
 */
import type { ReactNode } from 'react';
import { SITE_NAME } from '../landing';
import { MAIN_CONTENT_ID, SkipLink } from '../ui/skip-link';

/** The site's pages and sections its frame links to, each label and address written once. */
export const SITE_LINKS = {
  home: { label: 'Home', href: '/' },
  about: { label: 'About', href: '/about' },
  contact: { label: 'Contact', href: '/contact' },
  privacy: { label: 'Privacy', href: '/privacy' },
  terms: { label: 'Terms', href: '/terms' },
  guidelines: { label: 'Community Guidelines', href: '/guidelines' },
  help: { label: 'Help', href: '/help' },
  support: { label: 'Support', href: '/support' },
  subscribe: { label: 'Subscribe', href: '/subscribe' },
  rss: { label: 'RSS', href: '/rss' },
  blog: { label: 'Blog', href: '/blog' },
  calendar: { label: 'Calendar', href: '/calendar' },
  signIn: { label: 'Sign in', href: '/login' },
} as const;

/** The site's own pages the landing page's footer lists, so a visitor asked for an e-mail address can read the privacy notice first. */
export const LANDING_FOOTER = [
  SITE_LINKS.about,
  SITE_LINKS.privacy,
  SITE_LINKS.terms,
  SITE_LINKS.guidelines,
  SITE_LINKS.help,
  SITE_LINKS.contact,
];

/** A link in the footer. */
export function FooterLink({ label, href }: { label: string; href: string }) {
  return (
    <a href={href} className="inline-flex min-h-6 items-center hover:text-white">
      {label}
    </a>
  );
}

/**
 * The whole frame: the skip link, the header's bar (`bar`, the home link and the site's links, in `barClassName`'s
 * row) and what the header opens below it (`menu`), the page's main content, and the footer's links (`footer`) over
 * the copyright line of `year`.
 */
export function SiteFrame({
  barClassName,
  bar,
  menu,
  year,
  footer,
  children,
}: {
  barClassName: string;
  bar: ReactNode;
  menu?: ReactNode;
  year: number;
  footer: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <header className="bg-brand-900 text-white">
        <div className={barClassName}>{bar}</div>
        {menu}
      </header>
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 p-4 outline-none md:p-6">
        {children}
      </main>
      <footer className="bg-slate-900 text-slate-300">
        {footer}
        <p className="border-t border-white/10 py-4 text-center text-sm">{`© ${year} ${SITE_NAME}. All rights reserved.`}</p>
      </footer>
    </div>
  );
}
