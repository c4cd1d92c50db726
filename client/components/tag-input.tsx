/**
 * Adding tags in a form (a post, an event): the typed tag, normalised the form's way, is added by Enter or the Add
 * button; one the limits refuse (shared/feed/tags.ts) stays in the box, marked invalid, for the form to say why.
 */
import { useState } from 'react';
import { tagRefusal } from '../../shared/feed/tags';
import { Button } from './ui/button';

/** The box's text, why the tag typed is refused (null when it may be added), and adding it. */
export function useTagEntry(tags: readonly string[], setTags: (tags: string[]) => void, normalize: (typed: string) => string) {
  const [text, setText] = useState('');
  const typed = normalize(text);
  const refusal = typed ? tagRefusal(tags, typed) : null;
  const add = () => {
    if (refusal) return;
    if (typed && !tags.includes(typed)) setTags([...tags, typed]);
    setText('');
  };
  return { text, setText, refusal, add };
}

/** The box, named "Add a tag" for screen readers and described by the form's line of limits, and its Add button. */
export function TagInput({
  id,
  limitsId,
  className,
  entry,
}: {
  id: string;
  /** The id of the line that gives the limits, or why the tag is refused. */
  limitsId: string;
  /** The box's look. */
  className: string;
  entry: ReturnType<typeof useTagEntry>;
}) {
  return (
    <div className="flex gap-2">
      <label htmlFor={id} className="sr-only">
        Add a tag
      </label>
      <input
        id={id}
        value={entry.text}
        onChange={(event) => entry.setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            entry.add();
          }
        }}
        placeholder="Add a tag"
        aria-describedby={limitsId}
        aria-invalid={entry.refusal ? true : undefined}
        className={className}
      />
      <Button variant="secondary" onPress={entry.add} isDisabled={Boolean(entry.refusal)}>
        Add
      </Button>
    </div>
  );
}
