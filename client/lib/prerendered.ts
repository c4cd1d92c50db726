/**
 * The server sends the public pages (landing, a blog post, an event) with their content already in the HTML
 * (#prerendered, server/public-pages), for a first paint without waiting for scripts, for crawlers and for link
 * previews. The app renders hidden beside it and takes over once the page it draws is ready, so the visitor
 * never sees a spinner in between.
 */
import { useEffect } from 'react';

export function handOffPrerendered() {
  document.getElementById('prerendered')?.remove();
  document.body.removeAttribute('data-prerendered');
}

/** For a page the server may have prerendered: hand over once `ready` (its data loaded, or known missing). */
export function usePrerenderedHandoff(ready: boolean) {
  useEffect(() => {
    if (ready) handOffPrerendered();
  }, [ready]);
}
