/** The SMTP sink's `mailbox:changed`: at once for a single mail, a few times a second during a fan-out, never losing the last. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttled } from '../../platform/mail/smtp-sink';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('mailbox notices', () => {
  it('tells at once about a single mail', () => {
    const notify = vi.fn();
    throttled(notify, 500).call();
    expect(notify).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2000);
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it('tells once per interval during a burst, and once more after its last mail', () => {
    const told: number[] = [];
    const captured = throttled(() => told.push(Date.now()), 500);
    const start = Date.now();
    // 1,000 mails over 2 s.
    let lastMail = start;
    for (let i = 0; i < 1000; i++) {
      lastMail = Date.now();
      captured.call();
      vi.advanceTimersByTime(2);
    }
    vi.advanceTimersByTime(5000);
    expect(told[0]).toBe(start);
    expect(told.length).toBeGreaterThanOrEqual(4);
    expect(told.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < told.length; i++) expect(told[i]! - told[i - 1]!).toBeGreaterThanOrEqual(500);
    expect(told.at(-1)).toBeGreaterThanOrEqual(lastMail);
  });

  it('says nothing more once cancelled', () => {
    const notify = vi.fn();
    const captured = throttled(notify, 500);
    captured.call();
    captured.call();
    captured.cancel();
    vi.advanceTimersByTime(2000);
    expect(notify).toHaveBeenCalledTimes(1);
  });
});
