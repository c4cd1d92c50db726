import type { ComponentType, ReactNode } from 'react';

/** A link between the sign-in and registration pages: the app's router link, or the visitor pages' own. */
export interface AuthLinkProps {
  to: '/login' | '/register' | '/forgot-password';
  className: string;
  children: ReactNode;
}

/**
 * What the sign-in pages need from whoever draws them (the app's router, or client/visitor.tsx for a visitor's
 * first page, which does not load the app): where to go once signed in, and the link to the other page.
 */
export interface AuthNavigation {
  go: (to: string) => Promise<void>;
  AuthLink: ComponentType<AuthLinkProps>;
}

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex min-h-screen items-center justify-center bg-gradient-to-b from-brand-900 to-slate-900 p-4">
      <main className="w-full max-w-md rounded-xl bg-white p-6 shadow-xl dark:bg-slate-900">
        <p className="flex items-center gap-2 text-sm font-semibold text-brand-600 dark:text-amber-accent">Broadcast History Community</p>
        <h1 className="mt-2 mb-6 text-2xl font-bold">{title}</h1>
        {children}
      </main>
    </div>
  );
}
