import type { ReactNode } from 'react';

/** The spec's role badge styles: admin destructive, staff default, member secondary, subscriber outline. */
const VARIANTS = {
  destructive: 'bg-red-600 text-white',
  default: 'bg-brand-600 text-white dark:bg-amber-accent dark:text-slate-950',
  secondary: 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100',
  outline: 'border border-slate-400 text-slate-700 dark:border-slate-500 dark:text-slate-200',
} as const;

export type BadgeVariant = keyof typeof VARIANTS;

export const ROLE_BADGE: Record<string, BadgeVariant> = {
  admin: 'destructive',
  staff: 'default',
  member: 'secondary',
  subscriber: 'outline',
};

export function Badge({
  variant = 'default',
  children,
  className = '',
}: {
  variant?: BadgeVariant;
  children: ReactNode;
  className?: string;
}) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold capitalize ${VARIANTS[variant]} ${className}`}
    >
      {children}
    </span>
  );
}

export function RoleBadge({ role }: { role: string }) {
  return <Badge variant={ROLE_BADGE[role] ?? 'secondary'}>{role}</Badge>;
}
