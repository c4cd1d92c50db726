import type { ReactNode } from 'react';

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex min-h-screen items-center justify-center bg-gradient-to-b from-brand-900 to-slate-900 p-4">
      <main className="w-full max-w-md rounded-xl bg-white p-6 shadow-xl dark:bg-slate-900">
        <p className="flex items-center gap-2 text-sm font-semibold text-brand-600 dark:text-amber-accent">
          Broadcast History Community
        </p>
        <h1 className="mt-2 mb-6 text-2xl font-bold">{title}</h1>
        {children}
      </main>
    </div>
  );
}
