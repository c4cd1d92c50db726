/**
 * A confirmation that asks an optional reason (at most 500 characters, as the API takes it): reporting a post or a
 * comment, rejecting a post or an event. Reasons are shown to staff and, for a rejection, to the author. The dialog
 * keeps the keyboard inside it and gives focus back to the button that opened it.
 */
import { useState, type ReactNode } from 'react';
import { Button as AriaButton, DialogTrigger, Heading, Label, TextArea, TextField } from 'react-aria-components';
import { CONFIRM_OVERLAY, CONFIRM_PANEL, ModalFrame } from './dialog-window';
import { Button, type ButtonProps } from './ui/button';

export const REASON_MAX_LENGTH = 500;

/** The optional reason's text area with its count of characters (the dialog below, a date's cancelling). */
export function ReasonField({ value, onChange, label }: { value: string; onChange: (value: string) => void; label: string }) {
  return (
    <TextField value={value} onChange={onChange} maxLength={REASON_MAX_LENGTH} className="mt-4 flex flex-col gap-1">
      <Label className="text-sm font-medium">{label} (optional)</Label>
      <TextArea
        rows={3}
        autoFocus
        className="rounded-md border border-slate-300 bg-white px-3 py-2 text-base outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/30 dark:border-slate-600 dark:bg-slate-900"
      />
      <span className="self-end text-xs text-slate-600 dark:text-slate-400">
        {value.length}/{REASON_MAX_LENGTH}
      </span>
    </TextField>
  );
}

export interface ReasonDialogProps {
  /** The button that opens the dialog. */
  label: ReactNode;
  /** Its accessible name when the label alone is ambiguous in a list ("Report comment by …"). */
  triggerName?: string | undefined;
  triggerVariant?: ButtonProps['variant'];
  /** A look of its own for the opening button (a thread's small actions), in place of the variant's. */
  triggerClassName?: string | undefined;
  title: string;
  description: string;
  fieldLabel: string;
  confirmLabel: string;
  destructive?: boolean;
  /** Runs with the reason (undefined when left empty); the dialog closes once it resolves and stays open if it throws. */
  onConfirm: (reason: string | undefined) => Promise<unknown>;
}

export function ReasonDialog({
  label,
  triggerName,
  triggerVariant = 'secondary',
  triggerClassName,
  title,
  description,
  fieldLabel,
  confirmLabel,
  destructive = false,
  onConfirm,
}: ReasonDialogProps) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <DialogTrigger onOpenChange={(open) => open && setReason('')}>
      {triggerClassName ? (
        <AriaButton
          aria-label={triggerName}
          className={`outline-none focus-visible:ring-2 focus-visible:ring-amber-500 ${triggerClassName}`}
        >
          {label}
        </AriaButton>
      ) : (
        <Button variant={triggerVariant} aria-label={triggerName}>
          {label}
        </Button>
      )}
      <ModalFrame overlayClassName={CONFIRM_OVERLAY} className={CONFIRM_PANEL}>
        {(close) => (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (busy) return;
              setBusy(true);
              onConfirm(reason.trim() || undefined)
                .then(close, () => undefined)
                .finally(() => setBusy(false));
            }}
          >
            <Heading slot="title" className="text-lg font-semibold">
              {title}
            </Heading>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p>
            <ReasonField value={reason} onChange={setReason} label={fieldLabel} />
            <div className="mt-4 flex justify-end gap-2">
              <Button variant="ghost" onPress={close}>
                Cancel
              </Button>
              <Button type="submit" variant={destructive ? 'destructive' : 'primary'} isDisabled={busy}>
                {confirmLabel}
              </Button>
            </div>
          </form>
        )}
      </ModalFrame>
    </DialogTrigger>
  );
}
