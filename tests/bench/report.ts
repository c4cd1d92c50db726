/** Shared helpers of the benchmarks: timing and a table of figures beside same-run baselines. */

/** Runs `work` once and returns how many `count` units it did per second. */
export async function rate(count: number, work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return count / ((performance.now() - started) / 1000);
}

/** Median duration of `runs` calls, in milliseconds. */
export async function medianMs(runs: number, work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export interface Row {
  figure: string;
  value: number;
  unit: string;
  baseline: string;
  baselineValue: number;
}

const format = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));

/**
 * A latency says how it was driven: "closed loop" (each call sent once the one before answered, so a backlog
 * delays the sending and hides itself) or "open loop" (each sent at its own time, or all at once, whatever the
 * answers; latency counted from then). A figure in ms without either words is refused.
 */
const LOOP = /\b(open|closed) loop\b/;

export function printTable(rows: Row[]) {
  const unlabelled = rows.find((row) => row.unit === 'ms' && !LOOP.test(row.figure));
  if (unlabelled) throw new Error(`The latency "${unlabelled.figure}" does not say whether it is open or closed loop`);
  const lines = rows.map((row) => {
    const ratio = row.value / row.baselineValue;
    return [
      row.figure,
      `${format(row.value)} ${row.unit}`,
      `${row.baseline}: ${format(row.baselineValue)} ${row.unit}`,
      `${ratio.toFixed(2)}x baseline`,
    ];
  });
  const widths = [0, 1, 2].map((i) => Math.max(...lines.map((line) => line[i]!.length)));
  for (const line of lines) console.log(line.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell)).join('  |  '));
}
