/** The boxes pages are made of: a titled panel (a section its heading names), and a figure's tile. */
import type { ReactNode } from 'react';

export const PANEL_LOOK = 'rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900';

/** A section in a box, named for assistive technology by its heading (`id` is the heading's). */
export function Panel({
  id,
  title,
  headingClassName = 'font-semibold',
  className,
  children,
}: {
  id: string;
  title: ReactNode;
  headingClassName?: string;
  /** Space around it (a margin), put before the box's look. */
  className?: string | undefined;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className ? `${className} ${PANEL_LOOK}` : PANEL_LOOK}>
      <h2 id={id} className={headingClassName}>
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A figure with its name above it, and a line of detail below when there is one. */
export function StatTile({ label, value, detail }: { label: string; value: ReactNode; detail?: string | undefined }) {
  return (
    <div className={PANEL_LOOK}>
      <p className="text-sm text-slate-600 dark:text-slate-400">{label}</p>
      <p className="mt-1 text-2xl font-bold">{value}</p>
      {detail && <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{detail}</p>}
    </div>
  );
}
