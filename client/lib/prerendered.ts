/**
 * The server sends a visitor's public pages with their content already in the HTML (#prerendered,
 * server/public-pages), which the browser hydrates without the app (client/public-page.tsx). Should the app still
 * start on such a page (its pages call this once their data is there, and the router on the first move), the
 * server's copy goes, so the two never show at once.
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
