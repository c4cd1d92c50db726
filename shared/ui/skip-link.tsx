/**
 * The first Tab stop of every page (WCAG 2.4.1, bypass blocks): "Skip to content" moves focus past the navigation to
 * the page's main content. The target is focusable by script only (tabindex -1), so Tab then goes on from there.
 * Focus is moved by hand rather than by the fragment, so the router never sees a `#main` address; without script
 * (the server's public pages) the fragment does it. One markup for the app and the server (shared/public-pages).
 */
import type { MouseEvent } from 'react';

export const MAIN_CONTENT_ID = 'main';

/** Classes of the link: out of sight until it has focus, then a plain button at the top left. */
export const SKIP_LINK_CLASS =
  'sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[100] focus:inline-flex focus:min-h-11 focus:items-center focus:rounded-md focus:bg-white focus:px-4 focus:font-semibold focus:text-brand-900 focus:shadow-lg focus:ring-2 focus:ring-amber-500 focus:outline-none';

export function SkipLink({ target = MAIN_CONTENT_ID }: { target?: string }) {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(target);
    if (!main) return;
    event.preventDefault();
    main.focus();
  };
  return (
    <a href={`#${target}`} onClick={skip} className={SKIP_LINK_CLASS}>
      Skip to content
    </a>
  );
}
