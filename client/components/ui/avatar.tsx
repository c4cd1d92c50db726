/** Initials of up to the first two words, uppercased (the spec's avatar fallback). */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');
}

const SIZES = { sm: 'size-8 text-xs', md: 'size-10 text-sm', lg: 'size-16 text-lg' } as const;
const ROLE_DOT: Record<string, string> = { admin: 'bg-red-600', staff: 'bg-blue-600', member: 'bg-green-600', subscriber: 'bg-yellow-500' };

export function Avatar({ name, src, size = 'md', role, online }: { name: string; src?: string | null; size?: keyof typeof SIZES; role?: string; online?: boolean }) {
  return (
    <span className={`relative inline-flex shrink-0 ${SIZES[size]}`}>
      {src ? (
        <img src={src} alt="" className="size-full rounded-full object-cover" />
      ) : (
        <span aria-hidden="true" className="flex size-full items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-800 dark:bg-brand-800 dark:text-brand-100">
          {initialsOf(name)}
        </span>
      )}
      {role && <span aria-hidden="true" title={role} className={`absolute -top-0.5 -right-0.5 size-3 rounded-full ring-2 ring-white dark:ring-slate-900 ${ROLE_DOT[role] ?? ''}`} />}
      {online && <span aria-label="online" className="absolute -right-0.5 -bottom-0.5 size-3 rounded-full bg-green-500 ring-2 ring-white dark:ring-slate-900" />}
    </span>
  );
}
