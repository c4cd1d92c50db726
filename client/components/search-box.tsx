/** A list's search box: a search field named for screen readers (the placeholder shows what it searches). */
import { useId } from 'react';

export function SearchBox({
  label,
  value,
  onChange,
  placeholder,
  className,
}: {
  /** Its accessible name ("Search posts"), read but not shown. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  className: string;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        className={className}
      />
    </>
  );
}
