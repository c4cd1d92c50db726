/** The one-card layout of the pages a visitor reaches from an e-mail link, without the signed-in shell. */
import type { ReactNode } from 'react';

export function Panel({
  title,
  tone = 'neutral',
  children,
}: {
  title: string;
  tone?: 'neutral' | 'success' | 'error';
  children: ReactNode;
}) {
  const accent = { neutral: 'border-t-brand-600', success: 'border-t-green-600', error: 'border-t-red-600' }[tone];
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4 py-10 dark:bg-slate-950">
      <section
        aria-labelledby="panel-title"
        className={`w-full max-w-md rounded-xl border border-t-4 border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900 ${accent}`}
      >
        <p className="text-sm font-semibold text-slate-600 dark:text-slate-400">Broadcast History Community</p>
        <h1 id="panel-title" className="mt-2 text-2xl font-bold">
          {title}
        </h1>
        <div className="mt-3 space-y-3 text-slate-700 dark:text-slate-300">{children}</div>
      </section>
    </main>
  );
}
