/**
 * The member picker of a text box (docs/domain/notifications.md#mentions): typing `@` and the start of a name lists
 * matching members; Up and Down move, Enter or Tab inserts `@First Last`, Escape closes. The text box keeps the focus
 * and points at the highlighted member (aria-activedescendant).
 */
import { useId, useState, type KeyboardEvent, type RefObject } from 'react';
import { useQuery } from '@tanstack/react-query';
import { mentionQueryBefore } from '../../shared/members/mentions';
import { apiQuery } from '../lib/query-keys';
import { useDebounced } from '../lib/use-debounced';
import { Avatar } from './ui/avatar';

export function useMentionPicker(value: string, setValue: (next: string) => void, textArea: RefObject<HTMLTextAreaElement | null>) {
  const listId = useId();
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const typed = useDebounced(query ?? '', 150);
  const matches = useQuery({
    ...apiQuery('/api/members', { params: { query: { q: typed, limit: '6' } } }),
    enabled: query !== null && typed.length > 0,
    staleTime: 30_000,
  });
  const options = query !== null && typed.length > 0 ? (matches.data?.items ?? []) : [];
  const open = options.length > 0;

  /** Reads what is typed after an `@` before the caret; call after every change and caret move. */
  const follow = (element: HTMLTextAreaElement) => {
    const next = mentionQueryBefore(element.value.slice(0, element.selectionStart));
    setQuery(next);
    if (next !== query) setActive(0);
  };

  const pick = (member: (typeof options)[number]) => {
    const element = textArea.current;
    if (!element || query === null) return;
    const caret = element.selectionStart;
    const start = caret - query.length - 1;
    const inserted = `@${member.name} `;
    setValue(`${value.slice(0, start)}${inserted}${value.slice(caret)}`);
    setQuery(null);
    requestAnimationFrame(() => {
      element.focus();
      element.setSelectionRange(start + inserted.length, start + inserted.length);
    });
  };

  /** Handles the keys the open list owns; true when it did, so the text box does nothing more with the key. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      setActive((active + (event.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
    } else if ((event.key === 'Enter' && !event.ctrlKey && !event.metaKey) || event.key === 'Tab') {
      pick(options[active] ?? options[0]!);
    } else if (event.key === 'Escape') {
      setQuery(null);
    } else return false;
    event.preventDefault();
    return true;
  };

  const optionId = (index: number) => `${listId}-option-${index}`;
  const textAreaProps = {
    'aria-autocomplete': 'list' as const,
    'aria-controls': open ? listId : undefined,
    'aria-activedescendant': open ? optionId(active) : undefined,
    onSelect: (event: { currentTarget: HTMLTextAreaElement }) => follow(event.currentTarget),
  };

  const picker = open ? (
    <ul
      id={listId}
      role="listbox"
      aria-label="Members to mention"
      className="z-10 mt-1 max-w-sm rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
    >
      {options.map((member, index) => (
        <li
          key={member.id}
          id={optionId(index)}
          role="option"
          aria-selected={index === active}
          // Keeps the focus in the text box, so the caret is where the name goes.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => pick(member)}
          className={`flex min-h-11 cursor-pointer items-center gap-2 rounded px-2 text-sm ${index === active ? 'bg-brand-50 dark:bg-slate-800' : ''}`}
        >
          <Avatar name={member.name} src={member.avatar} size="sm" />
          <span>{member.name}</span>
        </li>
      ))}
    </ul>
  ) : null;

  return { textAreaProps, onKeyDown, follow, picker };
}
