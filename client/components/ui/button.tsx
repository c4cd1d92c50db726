import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';

const VARIANTS = {
  primary: 'bg-brand-600 text-white hover:bg-brand-700 dark:bg-amber-accent dark:text-slate-950 dark:hover:bg-amber-500',
  secondary:
    'border border-slate-300 bg-white text-slate-900 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800',
  ghost: 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800',
  destructive: 'bg-red-600 text-white hover:bg-red-700',
} as const;

export interface ButtonProps extends AriaButtonProps {
  variant?: keyof typeof VARIANTS;
  className?: string;
}

/** A link that looks like a button (a download, a page of its own), with the same touch target. */
export function buttonLook(variant: keyof typeof VARIANTS = 'primary') {
  return `inline-flex min-h-11 items-center justify-center gap-2 rounded-md px-4 text-sm font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-amber-500 focus-visible:ring-offset-2 ${VARIANTS[variant]}`;
}

/** A button with the site's look and a touch target of at least 44px. */
export function Button({ variant = 'primary', className = '', ...props }: ButtonProps) {
  return <AriaButton {...props} className={`${buttonLook(variant)} disabled:cursor-not-allowed disabled:opacity-50 ${className}`} />;
}
