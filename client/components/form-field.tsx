/**
 * A form's field: its label, the control (an input, a text area, a list to choose from) and, under it, what is wrong
 * with it (ours before sending, or the server's). The control is marked invalid and described by that message, so
 * a screen reader says it with the field.
 */
import { useId, type ReactNode } from 'react';

export interface FieldControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

export function FormField({
  label,
  error,
  after,
  children,
}: {
  label: ReactNode;
  error?: string | undefined;
  /** Shown between the control and its message (a picker that follows the text). */
  after?: ReactNode;
  /** The control, given the props that tie it to its label and message. */
  children: (control: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children(error ? { id, 'aria-invalid': true, 'aria-describedby': errorId } : { id })}
      {after}
      {error && (
        <p id={errorId} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
