/**
 * A visitor's first pages without the app: the landing page, sign-in and registration, drawn with React alone
 * (no router, shell, socket or other feature's code). Moving between the two sign-in pages stays here; signing
 * in, or any other page, loads the app (client/app.tsx), which takes over at the page it was sent to.
 */
import { StrictMode, Suspense, lazy, useEffect, useMemo, useState, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from './lib/query-client';
import { Spinner } from './components/ui/spinner';
import { LandingPage } from './features/landing/landing-page';
import type { AuthLinkProps } from './features/auth/auth-card';

export type VisitorPage = 'landing' | 'login' | 'register';
const PAGES: Record<string, VisitorPage> = { '/': 'landing', '/login': 'login', '/register': 'register' };
export const visitorPageAt = (path: string): VisitorPage | undefined => PAGES[path];

const signInPage = () => import('./features/auth/sign-in-page');
const registerPage = () => import('./features/auth/register-page');
const SignInPage = lazy(() => signInPage().then((m) => ({ default: m.SignInPage })));
const RegisterPage = lazy(() => registerPage().then((m) => ({ default: m.RegisterPage })));

let root: Root | null = null;

/** The app takes over at the current address (after a sign-in, or a page that is not a visitor's). */
async function startApp() {
  const { startApp: start } = await import('./app');
  root?.unmount();
  root = null;
  start();
}

async function go(to: string) {
  window.history.pushState(null, '', to);
  await startApp();
}

function searchParams() {
  const search = new URLSearchParams(window.location.search);
  const redirect = search.get('redirect');
  // A path of this site only (as the app's route rule): never a way off it.
  return {
    error: search.get('error') === 'link' ? ('link' as const) : undefined,
    redirect: redirect && /^\/(?![/\\])/u.test(redirect) ? redirect : undefined,
    reset: search.get('reset') === 'done' ? ('done' as const) : undefined,
  };
}

function Visitor({ first }: { first: VisitorPage }) {
  const [page, setPage] = useState(first);
  useEffect(() => {
    const moved = () => {
      const next = visitorPageAt(window.location.pathname);
      if (next) setPage(next);
      else void startApp();
    };
    window.addEventListener('popstate', moved);
    return () => window.removeEventListener('popstate', moved);
  }, []);
  // One component for the page's life (setPage does not change), so its links are not drawn anew each time.
  const AuthLink = useMemo(
    () =>
      function AuthLink({ to, className, children }: AuthLinkProps) {
        return (
          <a
            href={to}
            className={className}
            onClick={(event) => {
              if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
              event.preventDefault();
              window.history.pushState(null, '', to);
              // A page of the app's (forgot password): the app takes over there.
              const next = PAGES[to];
              if (next) setPage(next);
              else void startApp();
            }}
          >
            {children}
          </a>
        );
      },
    [],
  );
  let content: ReactNode;
  if (page === 'landing') content = <LandingPage />;
  else if (page === 'login') content = <SignInPage search={searchParams()} go={go} AuthLink={AuthLink} />;
  else content = <RegisterPage go={go} AuthLink={AuthLink} />;
  return <Suspense fallback={<Spinner />}>{content}</Suspense>;
}

export function showVisitorPage(page: VisitorPage) {
  root = createRoot(document.getElementById('root')!);
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Visitor first={page} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
