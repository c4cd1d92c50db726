/**
 * `npm run -s openapi [-- FILE]`: the OpenAPI document of the API (what /api/openapi.json serves, but the app's pages),
 * printed or written to FILE
 * (`npm run lint` writes it and checks it with Redocly's recommended rules, redocly.yaml).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../platform/config';
import { createServices } from '../main/services';
import { buildApp } from '../server/app';

// The same document on every machine: the development mailbox's routes, which SMTP_URL leaves out, are in it.
const { SMTP_URL: _smtpUrl, NODE_ENV: _nodeEnv, ...env } = process.env;
const config = loadConfig({ ...env, ROLES: 'api', LOG_LEVEL: 'warn' });
const services = await createServices(config, pino({ level: 'warn' }));
// The API alone: the app's pages are routes only where the client is built, and the document must not depend on that.
const { app } = await buildApp(services, { logger: false, serveClient: false });
await app.ready();
const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
const file = process.argv[2];
if (file) {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, document);
} else process.stdout.write(document);
await app.close();
await services.close();
