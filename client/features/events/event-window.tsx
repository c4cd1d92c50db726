/**
 * The calendar's tall windows (an event's details, a day's full list, a new event's form): from the top of the
 * screen, the page scrolling behind when one is taller than it.
 */
import type { ReactNode } from 'react';
import { ModalFrame } from '../../components/dialog-window';

export function EventWindow({
  onClose,
  width,
  'aria-label': ariaLabel,
  children,
}: {
  onClose: () => void;
  width: 'max-w-md' | 'max-w-2xl';
  /** Left out, give a heading with slot="title" inside. */
  'aria-label'?: string | undefined;
  children: ReactNode;
}) {
  return (
    <ModalFrame
      onClose={onClose}
      overlayClassName="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-black/40 p-4"
      className={`w-full ${width} rounded-xl bg-white p-6 shadow-xl dark:bg-slate-900`}
      aria-label={ariaLabel}
    >
      {children}
    </ModalFrame>
  );
}
