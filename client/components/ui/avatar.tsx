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
/** The only dot on an avatar is the green one for online: the role is shown beside the name, never as a coloured dot. */
export function Avatar({
  name,
  src,
  size = 'md',
  online,
}: {
  name: string;
  src?: string | null;
  size?: keyof typeof SIZES;
  online?: boolean;
}) {
  return (
    <span className={`relative inline-flex shrink-0 ${SIZES[size]}`}>
      {src ? (
        <img src={src} alt="" className="size-full rounded-full object-cover" />
      ) : (
        <span
          aria-hidden="true"
          className="flex size-full items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-800 dark:bg-brand-800 dark:text-brand-100"
        >
          {initialsOf(name)}
        </span>
      )}
      {online && (
        <span
          role="img"
          aria-label="online"
          className="absolute -right-0.5 -bottom-0.5 size-3 rounded-full bg-green-500 ring-2 ring-white dark:ring-slate-900"
        />
      )}
    </span>
  );
}
