import { useState, type ComponentType, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { ApiError, errorMessage } from '../../lib/api';

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

/**
 * What a sign-in page says instead of its form once it has an outcome (a link was mailed, a link no longer works):
 * the news (`role`: a status, or an alert), a note under it, and what to do next (`children`).
 */
export function AuthOutcome({
  title,
  role,
  message,
  note,
  children,
}: {
  title: string;
  role: 'status' | 'alert';
  message: ReactNode;
  note: ReactNode;
  children: ReactNode;
}) {
  return (
    <AuthCard title={title}>
      <div role={role} className="space-y-3">
        <p>{message}</p>
        <p className="text-sm text-slate-600 dark:text-slate-400">{note}</p>
      </div>
      <div className="mt-6 flex flex-col gap-3">{children}</div>
    </AuthCard>
  );
}

/** "Check your mail" once a link was sent: "Use another address" brings the form back; `children`, the way on. */
export function MailSent({
  message,
  note,
  onAnotherAddress,
  children,
}: {
  message: ReactNode;
  note: ReactNode;
  onAnotherAddress: () => void;
  children: ReactNode;
}) {
  return (
    <AuthOutcome title="Check your mail" role="status" message={message} note={note}>
      <Button variant="secondary" className="w-full" onPress={onAnotherAddress}>
        Use another address
      </Button>
      <p className="text-center text-sm">{children}</p>
    </AuthOutcome>
  );
}

/** The look of the links between the sign-in pages. */
export const authLinkLook = 'font-medium text-brand-600 underline dark:text-amber-accent';

/** What went wrong with the whole form (a refused field shows its message beside itself). */
export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700 dark:bg-red-950 dark:text-red-300">
      {children}
    </p>
  );
}

/** Good news about the form: a link was sent, the password was changed. */
export function FormNotice({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <p role="status" className={`rounded-md bg-green-50 p-3 text-sm text-green-800 dark:bg-green-950 dark:text-green-300 ${className}`}>
      {children}
    </p>
  );
}

/**
 * The state of a sign-in page's form: `submit(action)` runs the action once at a time; a refusal shows each refused
 * field's message beside it (`fields`) and anything else in the form's alert (`error`, or `fallback` when the error
 * says nothing). `onRefused` may take a refusal first (a spent link) and return true when it did.
 */
export function useAuthForm(fallback: string, onRefused?: (error: ApiError) => boolean) {
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = (action: () => Promise<void>) => async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    setFields({});
    try {
      await action();
    } catch (caught) {
      if (caught instanceof ApiError && onRefused?.(caught)) return;
      const refusedFields = caught instanceof ApiError ? caught.fields : {};
      setFields(refusedFields);
      if (Object.keys(refusedFields).length === 0) setError(errorMessage(caught, fallback));
    } finally {
      setPending(false);
    }
  };
  /** Editing a field the server refused clears its message: the next submit is judged afresh. */
  const edited = (key: string) => setFields(({ [key]: _edited, ...rest }) => rest);
  return { fields, error, setError, pending, submit, edited };
}
