/**
 * The event form's "Repeats" control (docs/domain/events.md#recurring-events): never, weekly on chosen days, or
 * monthly on the start's weekday of the month (the second Tuesday, the last Friday) or its date; every N weeks or
 * months; ending after N times or on a date. It writes the RRULE (shared/events/recurrence.ts) and says it in words.
 */
import { useEffect, useState } from 'react';
import {
  NTH_NAMES,
  RECURRENCE_MAX_COUNT,
  RECURRENCE_MAX_INTERVAL,
  WEEKDAY_NAMES,
  describeRecurrence,
  parseRecurrenceRule,
  recurrenceRuleOf,
  repeatOf,
  startPosition,
  type Repeat,
} from '../../../shared/events/recurrence';

const field = 'min-h-11 rounded-md border border-slate-300 bg-white px-3 dark:border-slate-600 dark:bg-slate-900';
/** Monday first, as the site's weeks run in a repeat (RFC 5545's WKST=MO). */
const WEEK = [1, 2, 3, 4, 5, 6, 0];

/** A whole number from 1 to `max` (weeks or months apart, times in all); what is not a number counts as 1. */
function CountInput({
  max,
  width,
  value,
  disabled,
  onChange,
  label,
}: {
  max: number;
  width: string;
  value: number;
  disabled?: boolean;
  onChange: (value: number) => void;
  label: string;
}) {
  return (
    <input
      type="number"
      min={1}
      max={max}
      className={`${field} ${width}`}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(Number(e.target.value) || 1)}
      aria-label={label}
    />
  );
}

export function RepeatControl({
  rule,
  startDay,
  onChange,
  error,
}: {
  rule: string;
  /** The start's day (`YYYY-MM-DD`), '' while none is entered. */
  startDay: string;
  onChange: (rule: string) => void;
  error?: string | undefined;
}) {
  const [repeat, setRepeat] = useState<Repeat>(() => repeatOf(rule));
  const valid = /^\d{4}-\d{2}-\d{2}$/u.test(startDay);
  const position = valid ? startPosition(startDay) : null;
  const made = valid ? recurrenceRuleOf(repeat, startDay) : '';
  // The rule follows the control and the start (a new start moves the weekday a monthly rule is on).
  useEffect(() => {
    if (repeat.frequency === 'never') {
      if (rule !== '') onChange('');
    } else if (made && made !== rule) onChange(made);
  }, [made, repeat.frequency, rule, onChange]);
  const change = (patch: Partial<Repeat>) => setRepeat((current) => ({ ...current, ...patch }));
  const parsed = made ? parseRecurrenceRule(made) : null;
  const words =
    parsed && 'rule' in parsed && position
      ? describeRecurrence(parsed.rule, { weekday: position.weekday, day: Number(startDay.slice(8)) })
      : '';
  const nth = position ? (position.nth === 5 ? -1 : position.nth) : 1;
  const unit = repeat.frequency === 'weekly' ? 'week' : 'month';

  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-700" aria-describedby="repeat-words">
      <legend className="px-1 text-sm font-medium">Repeats</legend>
      <label className="flex flex-wrap items-center gap-2 text-sm">
        <span className="sr-only">How often</span>
        <select
          className={field}
          value={repeat.frequency}
          onChange={(e) => change({ frequency: e.target.value as Repeat['frequency'] })}
          aria-label="Repeats"
        >
          <option value="never">Never</option>
          <option value="weekly">Weekly</option>
          <option value="monthly">Monthly</option>
        </select>
      </label>
      {repeat.frequency !== 'never' && !valid && <p className="text-sm text-slate-600 dark:text-slate-300">Enter a start date first.</p>}
      {repeat.frequency !== 'never' && position && (
        <>
          <label className="flex flex-wrap items-center gap-2 text-sm">
            Every
            <CountInput
              max={RECURRENCE_MAX_INTERVAL}
              width="w-20"
              value={repeat.interval}
              onChange={(interval) => change({ interval })}
              label={`Every how many ${unit}s`}
            />
            {unit}
            {repeat.interval === 1 ? '' : 's'}
          </label>
          {repeat.frequency === 'weekly' ? (
            <fieldset>
              <legend className="mb-1 text-sm">On</legend>
              <div className="flex flex-wrap gap-1">
                {WEEK.map((weekday) => {
                  const isStart = weekday === position.weekday;
                  const checked = isStart || repeat.weekdays.includes(weekday);
                  return (
                    <label
                      key={weekday}
                      className={`flex min-h-11 min-w-11 cursor-pointer items-center justify-center rounded-md border px-2 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-sky-500 ${
                        checked
                          ? 'border-sky-700 bg-sky-700 text-white dark:border-sky-400 dark:bg-sky-400 dark:text-slate-950'
                          : 'border-slate-300 dark:border-slate-600'
                      }`}
                      title={isStart ? `${WEEKDAY_NAMES[weekday]}: the start’s day` : WEEKDAY_NAMES[weekday]}
                    >
                      <input
                        type="checkbox"
                        className="sr-only"
                        checked={checked}
                        disabled={isStart}
                        aria-label={WEEKDAY_NAMES[weekday]}
                        onChange={(e) =>
                          change({
                            weekdays: e.target.checked ? [...repeat.weekdays, weekday] : repeat.weekdays.filter((day) => day !== weekday),
                          })
                        }
                      />
                      <span aria-hidden="true">{WEEKDAY_NAMES[weekday]!.slice(0, 3)}</span>
                    </label>
                  );
                })}
              </div>
            </fieldset>
          ) : (
            <fieldset className="space-y-1 text-sm">
              <legend className="mb-1">On</legend>
              <label className="flex min-h-11 items-center gap-2">
                <input
                  type="radio"
                  name="monthly-by"
                  checked={repeat.monthlyBy === 'weekday'}
                  onChange={() => change({ monthlyBy: 'weekday' })}
                />
                the {NTH_NAMES[nth]} {WEEKDAY_NAMES[position.weekday]}
              </label>
              <label className="flex min-h-11 items-center gap-2">
                <input
                  type="radio"
                  name="monthly-by"
                  checked={repeat.monthlyBy === 'date'}
                  onChange={() => change({ monthlyBy: 'date' })}
                />
                day {Number(startDay.slice(8))} of the month
              </label>
            </fieldset>
          )}
          <fieldset className="space-y-1 text-sm">
            <legend className="mb-1">Ends</legend>
            <label className="flex min-h-11 flex-wrap items-center gap-2">
              <input type="radio" name="repeat-ends" checked={repeat.ends === 'count'} onChange={() => change({ ends: 'count' })} />
              after
              <CountInput
                max={RECURRENCE_MAX_COUNT}
                width="w-24"
                value={repeat.count}
                disabled={repeat.ends !== 'count'}
                onChange={(count) => change({ count })}
                label="Number of times"
              />
              times
            </label>
            <label className="flex min-h-11 flex-wrap items-center gap-2">
              <input type="radio" name="repeat-ends" checked={repeat.ends === 'until'} onChange={() => change({ ends: 'until' })} />
              on
              <input
                type="date"
                className={field}
                value={repeat.until}
                min={startDay}
                disabled={repeat.ends !== 'until'}
                onChange={(e) => change({ until: e.target.value })}
                aria-label="Last date"
              />
            </label>
            <label className="flex min-h-11 items-center gap-2">
              <input type="radio" name="repeat-ends" checked={repeat.ends === 'never'} onChange={() => change({ ends: 'never' })} />
              no end (up to two years)
            </label>
          </fieldset>
        </>
      )}
      <p id="repeat-words" className="text-sm text-slate-700 dark:text-slate-200" aria-live="polite">
        {words ? `Repeats: ${words}` : repeat.frequency === 'never' ? 'Happens once.' : ''}
      </p>
      {error && (
        <p className="text-sm text-red-700 dark:text-red-400" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
