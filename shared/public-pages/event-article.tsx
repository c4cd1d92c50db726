/**
 * An event's page as an article, one markup for the server's public event page (views.tsx) and the app's event
 * page (client/features/events/event-page.tsx): its picture, its kind, its title, then when, where, who organises
 * it and (when given) how many places are taken, each named for a screen reader; `children` follow (its
 * description and what one can do). Plain markup: the server renders it too.
 */
import type { ReactNode } from 'react';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="sr-only">{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function EventArticle({
  cover,
  kind,
  title,
  when,
  where,
  organizer,
  attending,
  children,
}: {
  /** The picture, or null when it has none. */
  cover: ReactNode;
  /** Its type's line (with its badges). */
  kind: ReactNode;
  title: string;
  when: ReactNode;
  where: ReactNode;
  organizer: ReactNode;
  /** Left out where the page shows no count of places. */
  attending?: ReactNode;
  children: ReactNode;
}) {
  return (
    <article className="mx-auto max-w-3xl">
      {cover && <div className="mb-6">{cover}</div>}
      {kind}
      <h1 className="mt-2 text-3xl font-bold md:text-4xl">{title}</h1>
      <dl className="mt-4 grid gap-2 text-slate-700 dark:text-slate-300">
        <Fact term="When">{when}</Fact>
        <Fact term="Where">{where}</Fact>
        <Fact term="Organizer">{organizer}</Fact>
        {attending !== undefined && <Fact term="Attending">{attending}</Fact>}
      </dl>
      {children}
    </article>
  );
}
