/**
 * A window holding a form that creates or edits something: its title, the window from the top of the screen (the
 * form may be taller than it), and the form, whose submit (Enter, or the confirm button) calls `onSubmit` in place
 * of the browser's own.
 */
import type { ReactNode } from 'react';
import { DialogWindow, type DialogWindowProps } from './dialog-window';

export function FormDialog({
  title,
  width,
  onClose,
  onSubmit,
  className,
  children,
}: {
  title: string;
  width: DialogWindowProps['width'];
  onClose: () => void;
  onSubmit: () => void;
  /** The form's look. */
  className: string;
  children: ReactNode;
}) {
  return (
    <DialogWindow onClose={onClose} title={title} titleClassName="text-xl font-bold" width={width} place="top">
      <form
        className={className}
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
    </DialogWindow>
  );
}
