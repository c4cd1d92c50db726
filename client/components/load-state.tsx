/**
 * What a page or a list says while it is read and when it could not be: a status a screen reader announces
 * politely, and an alert it announces at once.
 */
import type { ReactNode } from 'react';

export function Loading({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <p role="status" className={`text-slate-600 dark:text-slate-400 ${className}`}>
      {children}
    </p>
  );
}

export function LoadFailed({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <p role="alert" className={`text-red-700 dark:text-red-400 ${className}`}>
      {children}
    </p>
  );
}

/** A read's three states: being read, failed, and what it read (given to `children`). */
export function QueryState<T>({
  query,
  loading,
  failed,
  className = '',
  children,
}: {
  query: { isPending: boolean; isError: boolean; data: T | undefined };
  /** "Loading posts..." */
  loading: ReactNode;
  /** "The newsfeed could not be loaded. Please refresh the page." */
  failed: ReactNode;
  /** Around either message (padding inside a box). */
  className?: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading className={className}>{loading}</Loading>;
  if (query.isError || query.data === undefined) return <LoadFailed className={className}>{failed}</LoadFailed>;
  return children(query.data);
}
