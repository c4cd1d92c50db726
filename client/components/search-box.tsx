/** A list's search box: a search field named for screen readers (the placeholder shows what it searches). */
import { useId, useState } from 'react';
import { useDebounced } from '../lib/use-debounced';

interface SearchBoxProps {
  /** Its accessible name ("Search posts"), read but not shown. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  className: string;
}

export function SearchBox({ label, value, onChange, placeholder, className }: SearchBoxProps) {
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

/**
 * A list's search as it is typed: its box, the text to search for (trimmed, once typing has paused, so a search is
 * one request and not one per key), and a way to put text in the box (a tag chosen in the list).
 */
export function useSearch({ label, placeholder, className }: Omit<SearchBoxProps, 'value' | 'onChange'>, delayMs = 250) {
  const [text, setText] = useState('');
  const q = useDebounced(text.trim(), delayMs);
  return { q, setText, box: <SearchBox label={label} value={text} onChange={setText} placeholder={placeholder} className={className} /> };
}
