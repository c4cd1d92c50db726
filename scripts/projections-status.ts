/**
 * `npm run projections:status`: every projection with its position, lag and state (running, catching-up,
 * rebuilding, failed, stopped), read from what the runners store, whichever process runs them.
 * `npm run -s projections:status -- --json` prints `[{ name, position, lag, state }]`.
 */
import { pino } from 'pino';
import { loadConfig } from '../platform/config';
import { createServices } from '../main/services';
import { projectionStatuses } from '../platform/projections/status';

const json = process.argv.includes('--json');
const config = loadConfig({ ...process.env, ROLES: 'projections' });
const services = await createServices(config, pino({ level: 'silent' }));
try {
  const statuses = await projectionStatuses({ store: services.store, eventStore: services.eventStore, runners: services.runners() });
  if (json) {
    console.log(JSON.stringify(statuses.map(({ name, position, lag, state }) => ({ name, position, lag, state }))));
  } else {
    const rows = [
      ['projection', 'runner', 'version', 'position', 'lag', 'state'],
      ...statuses.map((status) => [
        status.name,
        status.runner,
        String(status.version ?? '-'),
        String(status.position),
        String(status.lag),
        status.state,
      ]),
    ];
    const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
    for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
    for (const status of statuses) {
      if (status.error) console.log(`\n${status.name} ${status.error}`);
      if (status.rebuild)
        console.log(`\n${status.name}: rebuilding beside the live one, at ${status.rebuild.position} (${status.rebuild.lag} events to go)`);
    }
  }
} finally {
  await services.close();
}
