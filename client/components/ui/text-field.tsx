import { FieldError, Input, Label, TextField as AriaTextField, type TextFieldProps } from 'react-aria-components';

/**
 * A labelled input that shows the server's message for its field. The message is announced (aria) but never
 * set as the browser's own validity: that would block the next submit until a reload.
 */
export function TextField({ label, error, ...props }: TextFieldProps & { label: string; error?: string | undefined }) {
  return (
    <AriaTextField {...props} validationBehavior="aria" isInvalid={Boolean(error)} className="flex flex-col gap-1">
      <Label className="text-sm font-medium">{label}</Label>
      <Input className="min-h-11 rounded-md border border-slate-300 bg-white px-3 text-base outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/30 invalid:border-red-600 dark:border-slate-600 dark:bg-slate-900" />
      <FieldError className="text-sm text-red-600 dark:text-red-400">{error}</FieldError>
    </AriaTextField>
  );
}
