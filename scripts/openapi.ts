/**
 * `npm run -s openapi [-- FILE]`: the OpenAPI document the server serves at /api/openapi.json, printed or written to FILE
 * (`npm run lint` writes it and checks it with Redocly's recommended rules, redocly.yaml).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../platform/config';
import { createServices } from '../main/services';
import { buildApp } from '../server/app';

const config = loadConfig({ ...process.env, ROLES: 'api', LOG_LEVEL: 'warn' });
const services = await createServices(config, pino({ level: 'warn' }));
const { app } = await buildApp(services, { logger: false });
await app.ready();
const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
const file = process.argv[2];
if (file) {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, document);
} else process.stdout.write(document);
await app.close();
await services.close();
