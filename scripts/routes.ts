/** `npm run routes`: every HTTP route with who may call it, for an access audit. */
import { pino } from 'pino';
import { loadConfig } from '../platform/config';
import { createServices } from '../main/services';
import { buildApp } from '../server/app';
import { describeAccess } from '../server/http/access';

const config = loadConfig({ ...process.env, ROLES: 'api', LOG_LEVEL: 'warn' });
const services = await createServices(config, pino({ level: 'warn' }));
const { app, routes } = await buildApp(services, { logger: false });
await app.ready();
const rows = [...routes].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
const width = Math.max(...rows.map((r) => r.url.length));
for (const row of rows) console.log(`${row.method.padEnd(7)} ${row.url.padEnd(width)}  ${describeAccess(row.access)}`);
await app.close();
await services.close();
