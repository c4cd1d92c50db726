import { Switch, type SwitchProps } from 'react-aria-components';

/** An on/off switch with its label and a line under it; the whole row is the touch target. */
export function LabelledSwitch({
  label,
  description,
  className = '',
  ...props
}: Omit<SwitchProps, 'children' | 'className'> & { label: string; description: string; className?: string }) {
  return (
    <Switch {...props} className={`group flex min-h-11 cursor-pointer items-center gap-3 outline-none ${className}`}>
      <span
        aria-hidden="true"
        className="flex h-6 w-11 shrink-0 items-center rounded-full bg-slate-300 px-0.5 transition-colors group-data-[selected]:bg-brand-600 group-data-[focus-visible]:ring-2 group-data-[focus-visible]:ring-amber-500 dark:bg-slate-600 dark:group-data-[selected]:bg-amber-accent"
      >
        <span className="size-5 rounded-full bg-white shadow transition-transform group-data-[selected]:translate-x-5" />
      </span>
      <span className="min-w-0">
        <span className="block font-medium">{label}</span>
        <span className="block text-sm text-slate-600 dark:text-slate-400">{description}</span>
      </span>
    </Switch>
  );
}
