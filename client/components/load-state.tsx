/**
 * What a page or a list says while it is read and when it could not be: a status a screen reader announces
 * politely, and an alert it announces at once.
 */
import type { ReactNode } from 'react';

interface MessageProps {
  children: ReactNode;
  className?: string;
  /** Without a colour of its own: it takes the text's around it (a window's, a panel's). */
  plain?: boolean;
}

export function Loading({ children, className = '', plain = false }: MessageProps) {
  return (
    <p role="status" className={plain ? className || undefined : `text-slate-600 dark:text-slate-400 ${className}`}>
      {children}
    </p>
  );
}

export function LoadFailed({ children, className = '', plain = false }: MessageProps) {
  return (
    <p role="alert" className={plain ? className || undefined : `text-red-700 dark:text-red-400 ${className}`}>
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
  plain = false,
  children,
}: {
  query: { isPending: boolean; isError: boolean; data: T | undefined };
  /** "Loading posts..." */
  loading: ReactNode;
  /** "The newsfeed could not be loaded. Please refresh the page." */
  failed: ReactNode;
  /** Around either message (padding inside a box). */
  className?: string;
  /** The messages without a colour of their own. */
  plain?: boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending)
    return (
      <Loading className={className} plain={plain}>
        {loading}
      </Loading>
    );
  if (query.isError || query.data === undefined)
    return (
      <LoadFailed className={className} plain={plain}>
        {failed}
      </LoadFailed>
    );
  return children(query.data);
}
