/**
 * The whole app: router, shell and every feature's pages. The entry (main.tsx) loads it for every page but a
 * visitor's landing and sign-in pages, and the visitor's pages load it once the visitor signs in.
 */
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import type { Session } from '../shared/members/schemas';
import { queryClient } from './lib/query-client';
import { CURRENT_USER_KEY, deriveUser } from './lib/current-user';
import { router } from './router';

/** Draws the app in #root; `session`: the session the entry already read, so the app does not ask again. */
export function startApp(session?: Session) {
  if (session) queryClient.setQueryData(CURRENT_USER_KEY, session.user && deriveUser(session.user));
  const root = createRoot(document.getElementById('root')!);
  // As a transition, the first render yields to the browser every few milliseconds instead of holding the main
  // thread for the whole tree (what Lighthouse counts as blocking time on a public page's first load).
  startTransition(() =>
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
}
