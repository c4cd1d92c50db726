import { Link } from '@tanstack/react-router';

export function NotFoundPage() {
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <p className="text-6xl font-bold text-brand-600 dark:text-amber-accent">404</p>
      <h1 className="mt-4 text-2xl font-bold">Page not found</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">This page is off the air: it does not exist, or it has moved.</p>
      <Link
        to="/"
        className="mt-6 inline-flex min-h-11 items-center rounded-md bg-brand-600 px-4 font-medium text-white dark:bg-amber-accent dark:text-slate-950"
      >
        Back to the newsfeed
      </Link>
    </div>
  );
}
