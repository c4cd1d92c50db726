/**
 * A window over the page (react-aria's modal dialog): a dimmed backdrop, a titled panel, and the row of buttons at
 * its foot. Escape or a click outside closes it, the keyboard stays inside it while it is open, and focus goes back
 * to what opened it.
 */
import type { ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from './ui/button';

const WIDTHS = { md: 'max-w-md', lg: 'max-w-lg', '2xl': 'max-w-2xl', '6xl': 'max-w-6xl' } as const;

const PLACES = {
  /** In the middle of the screen: short windows (a confirmation, a history). */
  middle: 'items-center',
  /** From the top, the page scrolling behind: long forms that may be taller than the screen. */
  top: 'items-start overflow-y-auto',
} as const;

export interface DialogWindowProps {
  /**
   * The window is open while it is shown, and closing it (Escape, a click outside) calls this. Left out when a
   * react-aria DialogTrigger around it opens and closes it.
   */
  onClose?: (() => void) | undefined;
  /** Its heading, which names the window for assistive technology; left out, give `aria-label` and a heading inside. */
  title?: ReactNode;
  /** The heading's look, in place of the default (a short window's). */
  titleClassName?: string | undefined;
  'aria-label'?: string | undefined;
  /** An `alertdialog` asks before something that cannot be undone. */
  role?: 'dialog' | 'alertdialog';
  width?: keyof typeof WIDTHS;
  place?: keyof typeof PLACES;
  /** Added to the panel's look (a height limit, a scroll); `bare` leaves its padding to the content. */
  className?: string | undefined;
  bare?: boolean;
  /** Added to the backdrop's look (where the window stands). */
  overlayClassName?: string | undefined;
  children: ReactNode | ((close: () => void) => ReactNode);
}

export function DialogWindow({
  onClose,
  title,
  titleClassName = 'text-lg font-bold',
  'aria-label': ariaLabel,
  role = 'dialog',
  width = 'md',
  place = 'middle',
  className = '',
  bare = false,
  overlayClassName = '',
  children,
}: DialogWindowProps) {
  return (
    <ModalFrame
      onClose={onClose}
      overlayClassName={`fixed inset-0 z-40 flex justify-center bg-black/40 p-2 sm:p-4 ${PLACES[place]} ${overlayClassName}`}
      className={`w-full ${WIDTHS[width]} rounded-xl bg-white shadow-xl dark:bg-slate-900 ${bare ? '' : 'p-4 sm:p-6'} ${className}`}
      role={role}
      aria-label={ariaLabel}
      dialogClassName={`outline-none ${bare ? 'flex min-h-0 flex-col' : ''}`}
    >
      {(close) => (
        <>
          {title !== undefined && (
            <Heading slot="title" className={titleClassName}>
              {title}
            </Heading>
          )}
          {typeof children === 'function' ? children(close) : children}
        </>
      )}
    </ModalFrame>
  );
}

/** A short confirmation's window, in the middle of the screen and above the page's other windows. */
export const CONFIRM_OVERLAY = 'fixed inset-0 z-50 flex items-center justify-center bg-black/40 p-4';
export const CONFIRM_PANEL = 'w-full max-w-md rounded-xl bg-white p-6 shadow-xl dark:bg-slate-900';

export interface ModalFrameProps {
  /** As DialogWindow's: open while shown, closing calls it; left out under a react-aria DialogTrigger. */
  onClose?: (() => void) | undefined;
  /** The backdrop's look, whole (where the window stands, what lies above it). */
  overlayClassName: string;
  /** The panel's look, whole. */
  className: string;
  role?: 'dialog' | 'alertdialog';
  'aria-label'?: string | undefined;
  dialogClassName?: string;
  children: ReactNode | ((close: () => void) => ReactNode);
}

/**
 * The modal itself, backdrop, panel and dialog, each look given whole: DialogWindow's frame, and the windows that keep
 * a look of their own (a reason asked, an organizer's lists, the calendar's tall windows).
 */
export function ModalFrame({
  onClose,
  overlayClassName,
  className,
  role = 'dialog',
  'aria-label': ariaLabel,
  dialogClassName = 'outline-none',
  children,
}: ModalFrameProps) {
  const open = onClose ? { isOpen: true, onOpenChange: (isOpen: boolean) => !isOpen && onClose() } : {};
  return (
    <ModalOverlay {...open} isDismissable className={overlayClassName}>
      <Modal className={className}>
        <Dialog role={role} aria-label={ariaLabel} className={dialogClassName}>
          {typeof children === 'function' ? ({ close }) => children(close) : children}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

export interface DialogActionsProps {
  /** The Cancel button: closes without doing anything. */
  onCancel: () => void;
  /** The button that does it, already saying so while it works ("Saving..."). */
  confirmLabel: ReactNode;
  /** Left out, the confirming button sends the form around it. */
  onConfirm?: (() => void) | undefined;
  /** While it works, or while there is nothing to send, the confirming button is disabled. */
  isDisabled?: boolean;
  destructive?: boolean;
  /** Space around the row (a margin, a grid column). */
  className?: string | undefined;
  /** Other buttons, before Cancel. */
  children?: ReactNode;
}

/** The foot of a window: Cancel, then the button that does what the window asks. */
export function DialogActions({
  onCancel,
  confirmLabel,
  onConfirm,
  isDisabled = false,
  destructive = false,
  className = '',
  children,
}: DialogActionsProps) {
  return (
    <div className={`flex flex-wrap justify-end gap-2 ${className}`}>
      {children}
      <Button variant="ghost" onPress={onCancel}>
        Cancel
      </Button>
      <Button
        type={onConfirm ? 'button' : 'submit'}
        variant={destructive ? 'destructive' : 'primary'}
        isDisabled={isDisabled}
        {...(onConfirm ? { onPress: onConfirm } : {})}
      >
        {confirmLabel}
      </Button>
    </div>
  );
}

/** The foot of a window that only shows something (a history, a list): its Close button. */
export function DialogClose({
  onClose,
  variant = 'ghost',
  autoFocus = false,
}: {
  onClose: () => void;
  variant?: 'ghost' | 'secondary';
  /** Focus starts on it when the window has nothing else to press. */
  autoFocus?: boolean;
}) {
  return (
    <div className="mt-4 flex justify-end">
      <Button variant={variant} onPress={onClose} autoFocus={autoFocus}>
        Close
      </Button>
    </div>
  );
}
