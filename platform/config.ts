/**
 * The environment, parsed and validated once at start. Nothing else reads process.env.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname } from 'node:path';
import * as v from 'valibot';

const booleanish = v.pipe(
  v.picklist(['true', 'false', '1', '0']),
  v.transform((s) => s === 'true' || s === '1'),
);
/**
 * `realtime` serves the sockets (/socket.io/): on the API's own HTTP server when the process runs `api` too,
 * else on a server of its own (PORT), so that the fan-out of notices has an event loop of its own.
 */
const roles = ['api', 'realtime', 'projections', 'workers', 'inbound'] as const;

/** Exported so that tests can name every variable of a kind (all the rate limits). */
export const EnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test']), 'development'),
  PORT: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(0), v.maxValue(65535)), '3000'),
  HOST: v.optional(v.string(), '0.0.0.0'),
  PUBLIC_URL: v.optional(v.pipe(v.string(), v.url('PUBLIC_URL must be a URL'))),
  DATABASE_URL: v.optional(v.string(), 'postgres://postgres@127.0.0.1:5432/bhc'),
  REDIS_URL: v.optional(v.string(), 'redis://127.0.0.1:6379'),
  /** Prefix for every Redis key (sessions, queues, socket streams), so several sites or test runs can share one Redis. */
  REDIS_PREFIX: v.optional(v.string(), 'bhc'),
  EVENT_STORE: v.optional(v.picklist(['postgres', 'kurrentdb']), 'postgres'),
  READ_STORE: v.optional(v.picklist(['postgres', 'mongodb']), 'postgres'),
  KURRENTDB_URL: v.optional(v.string()),
  MONGODB_URL: v.optional(v.string()),
  ROLES: v.optional(
    v.pipe(
      v.string(),
      v.transform((s) =>
        s
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean),
      ),
      v.array(v.picklist(roles, `ROLES must be a comma-separated list of ${roles.join(', ')}`)),
    ),
  ),
  SESSION_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'SESSION_SECRET must be at least 32 characters'))),
  SESSION_SECRET_FILE: v.optional(v.string(), '.data/session-secret'),
  /** Key of subscription link tokens (confirm, unsubscribe); derived from the session secret when unset. Changing it breaks every link already mailed. */
  SUBSCRIPTION_LINK_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'SUBSCRIPTION_LINK_SECRET must be at least 32 characters'))),
  /**
   * Key of the names of e-mail address claims in the log (server/members/email-claims.ts); required in production
   * by the api role (the one that claims), derived from the session secret elsewhere. Never change it: addresses claimed under the old one would look free.
   */
  EMAIL_CLAIM_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'EMAIL_CLAIM_SECRET must be at least 32 characters'))),
  TRUST_PROXY: v.optional(v.string(), 'false'),
  SMTP_URL: v.optional(v.string()),
  MAIL_FROM: v.optional(v.string(), 'Broadcast History Community <community@localhost>'),
  /** Port of the in-process SMTP sink used when SMTP_URL is not set (0 picks a free port); 2525 is the inbound role's. */
  SMTP_SINK_PORT: v.optional(v.pipe(v.string(), v.toNumber(), v.integer()), '2526'),
  /** The inbound role's SMTP port, where replies to discussion mail arrive (0 picks a free port). */
  INBOUND_SMTP_PORT: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(0), v.maxValue(65535)), '2525'),
  /** The domain of reply addresses (`reply+{token}@REPLY_DOMAIN`), whose MX leads to the inbound role; PUBLIC_URL's host by default. */
  REPLY_DOMAIN: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9.-]+$/iu, 'REPLY_DOMAIN must be a domain name'))),
  /** Largest mail the inbound role takes, in bytes; a larger one is refused at the SMTP level. */
  INBOUND_MAX_BYTES: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1024)), '1048576'),
  /** Lets a production site without SMTP_URL run the in-process sink anyway (a staging site): its mail is never delivered. */
  SMTP_SINK_IN_PRODUCTION: v.optional(booleanish, 'false'),
  TIME_ZONE: v.optional(v.string(), 'America/Chicago'),
  /** DKIM signing of outgoing mail: all three (the key inline or as a file) or none. */
  DKIM_DOMAIN: v.optional(v.string()),
  DKIM_SELECTOR: v.optional(v.string()),
  DKIM_PRIVATE_KEY: v.optional(v.string()),
  DKIM_PRIVATE_KEY_FILE: v.optional(v.string()),
  /** When digests are assembled (cron, in TIME_ZONE): daily at 07:00, weekly on Monday at 07:00. */
  DIGEST_DAILY_CRON: v.optional(v.string(), '0 7 * * *'),
  DIGEST_WEEKLY_CRON: v.optional(v.string(), '0 7 * * 1'),
  /** Mail jobs one worker process sends at the same time. */
  MAIL_CONCURRENCY: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '10'),
  /**
   * Days a sent mail stays in the outbox before it is pruned. At least one: the mail runner skips events older than a
   * day (HISTORY_AGE_MS), so a replay never meets a cause whose pruned entry would have kept it from being sent again.
   */
  MAIL_OUTBOX_RETENTION_DAYS: v.optional(
    v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1, 'MAIL_OUTBOX_RETENTION_DAYS must be at least 1')),
    '30',
  ),
  METRICS_TOKEN: v.optional(v.string()),
  RATE_LIMIT_AUTH_MAX: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '10'),
  RATE_LIMIT_POST_MAX: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '30'),
  RATE_LIMIT_EVENT_MAX: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '10'),
  RATE_LIMIT_SHARE_MAX: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '60'),
  RATE_LIMIT_COMMENT_MAX: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '20'),
  /** Replies one member may post by mail in an hour (the inbound role). */
  RATE_LIMIT_MAIL_REPLY_MAX: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '30'),
  /** Wrong passwords for one account (one address typed at sign-in) in 15 minutes, from any number of client addresses. */
  RATE_LIMIT_ACCOUNT_FAILURES_MAX: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '10'),
  /** Links mailed to one address (sign-in, e-mail change) in an hour, whoever asks. */
  RATE_LIMIT_MAIL_LINKS_MAX: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '5'),
  /** Password hashes computed at once (scrypt, each a core's worth of work), and how many may wait for one before a 503. */
  PASSWORD_HASH_CONCURRENCY: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '2'),
  PASSWORD_HASH_QUEUE: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(0)), '16'),
  /** Time a request has to arrive whole, body included (ms); a slower one is answered 408 and its connection closed. */
  REQUEST_TIMEOUT_MS: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1000)), '60000'),
  LOG_LEVEL: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  SECURE_COOKIES: v.optional(booleanish),
  STORAGE_QUOTA_BYTES: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1))),
  ALERT_RESPONSE_P95_MS: v.optional(v.pipe(v.string(), v.toNumber(), v.minValue(1)), '500'),
  /** The read-model runner's largest page, in events (platform/projections/runner.ts: PAGE_EVENTS when not set). */
  PROJECTION_PAGE_EVENTS: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(100))),
  ALERT_PROJECTION_LAG: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '100'),
  ALERT_STORAGE_USAGE: v.optional(v.pipe(v.string(), v.toNumber(), v.minValue(0.01), v.maxValue(1)), '0.8'),
  /** Alert when the oldest subscription mail still queued in the outbox is older than this, in seconds. */
  ALERT_MAIL_BACKLOG_SECONDS: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '600'),
  HOSTING_USAGE_URL: v.optional(v.pipe(v.string(), v.url())),
  HOSTING_BILLING_URL: v.optional(v.pipe(v.string(), v.url())),
  /** Where uploaded media live (docs/domain/media.md#storage): the local disk (MEDIA_DIR) or S3-compatible storage (S3_URL, S3_BUCKET). */
  MEDIA_STORE: v.optional(v.picklist(['disk', 's3']), 'disk'),
  MEDIA_DIR: v.optional(v.string(), '.data/media'),
  /** The S3 endpoint, its access key and secret as user and password: https://KEY:SECRET@host. */
  S3_URL: v.optional(v.pipe(v.string(), v.url('S3_URL must be a URL'))),
  S3_BUCKET: v.optional(v.string(), 'bhc-media'),
  S3_REGION: v.optional(v.string(), 'us-east-1'),
  /** Uploads one member may make per hour. */
  RATE_LIMIT_MEDIA_MAX: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '60'),
  /** Hours an upload that nothing refers to is kept before the sweep removes it. */
  MEDIA_ORPHAN_HOURS: v.optional(v.pipe(v.string(), v.toNumber(), v.minValue(0)), '24'),
  /** scrypt cost (N) for new password hashes; OWASP's 2^17 unless lowered for tests. */
  SCRYPT_N: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1024)), '131072'),
});

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** The DKIM key from DKIM_PRIVATE_KEY or DKIM_PRIVATE_KEY_FILE; null when signing is not configured. */
function dkim(env: v.InferOutput<typeof EnvSchema>) {
  // A PEM key in an environment variable often arrives with its line breaks written as \n.
  const privateKey =
    env.DKIM_PRIVATE_KEY?.replaceAll('\\n', '\n') ??
    (env.DKIM_PRIVATE_KEY_FILE ? readFileSync(env.DKIM_PRIVATE_KEY_FILE, 'utf8') : undefined);
  const given = [env.DKIM_DOMAIN, env.DKIM_SELECTOR, privateKey].filter((value) => value !== undefined).length;
  if (given === 0) return null;
  if (given < 3) throw new ConfigError('DKIM signing needs DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY (or DKIM_PRIVATE_KEY_FILE)');
  return { domainName: env.DKIM_DOMAIN!, keySelector: env.DKIM_SELECTOR!, privateKey: privateKey! };
}

/**
 * Which proxies may say who the client is (X-Forwarded-For): none, the nearest N hops, or the listed addresses and
 * networks. Never "any": with every hop trusted, the left-most address, which the client writes itself, would be the
 * client's address, and every per-address limit would reset with a header.
 */
function trustProxy(value: string): false | number | string[] {
  const trimmed = value.trim();
  if (trimmed === 'false' || trimmed === '' || trimmed === '0') return false;
  if (/^\d+$/u.test(trimmed)) return Number(trimmed);
  const entries = trimmed.split(',').map((entry) => entry.trim());
  const valid = (entry: string) => {
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || rest.length > 0) return false;
    return bits === undefined || (/^\d{1,3}$/u.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  };
  if (entries.length > 0 && entries.every(valid)) return entries;
  throw new ConfigError(
    'TRUST_PROXY must be false, the number of proxies in front of the site (1 for one reverse proxy), or a comma-separated list of their addresses or networks (10.0.0.0/8); "true" (any proxy) is refused, since it lets a client choose its own address',
  );
}

/** Reads the session secret from the environment, or (outside production) from a local file it creates. */
function sessionSecret(env: v.InferOutput<typeof EnvSchema>): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  if (env.NODE_ENV === 'production') throw new ConfigError('SESSION_SECRET is required in production (at least 32 characters)');
  const file = env.SESSION_SECRET_FILE;
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function defaultRoles(nodeEnv: 'development' | 'production' | 'test') {
  return nodeEnv === 'development' ? roles : roles.filter((role) => role !== 'inbound');
}

export function loadConfig(source: Record<string, string | undefined> = process.env) {
  const parsed = v.safeParse(EnvSchema, source);
  if (!parsed.success) {
    const lines = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? 'environment'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  // Development runs every role, the inbound SMTP listener too; tests and production name it when they want it.
  const env = { ...parsed.output, ROLES: parsed.output.ROLES ?? [...defaultRoles(parsed.output.NODE_ENV)] };
  if (env.EVENT_STORE === 'kurrentdb' && !env.KURRENTDB_URL) throw new ConfigError('EVENT_STORE=kurrentdb needs KURRENTDB_URL');
  if (env.READ_STORE === 'mongodb' && !env.MONGODB_URL) throw new ConfigError('READ_STORE=mongodb needs MONGODB_URL');
  if (env.MEDIA_STORE === 's3' && !env.S3_URL) throw new ConfigError('MEDIA_STORE=s3 needs S3_URL');
  // Without SMTP_URL the sink catches every mail, sign-in links included, and the site shows them in its mailbox.
  if (
    env.NODE_ENV === 'production' &&
    !env.SMTP_URL &&
    !env.SMTP_SINK_IN_PRODUCTION &&
    env.ROLES.some((role) => role === 'api' || role === 'workers')
  ) {
    throw new ConfigError(
      'SMTP_URL is required in production: without it no mail is delivered, and the in-process SMTP sink would catch it instead. Set SMTP_URL to your relay, or SMTP_SINK_IN_PRODUCTION=true to run the sink anyway (e.g. on a staging site)',
    );
  }
  const secret = sessionSecret(env);
  if (env.NODE_ENV === 'production' && !env.EMAIL_CLAIM_SECRET && env.ROLES.includes('api')) {
    throw new ConfigError(
      'EMAIL_CLAIM_SECRET is required in production (at least 32 characters; set it once and never change it: it keys the names of e-mail address claims in the event log)',
    );
  }
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicUrl,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    eventStore: env.EVENT_STORE,
    readStore: env.READ_STORE,
    kurrentDbUrl: env.KURRENTDB_URL,
    mongoDbUrl: env.MONGODB_URL,
    roles: new Set(env.ROLES),
    sessionSecret: secret,
    subscriptionLinkSecret: env.SUBSCRIPTION_LINK_SECRET ?? createHmac('sha256', secret).update('subscription-links').digest('base64url'),
    emailClaimSecret: env.EMAIL_CLAIM_SECRET ?? createHmac('sha256', secret).update('email-claims').digest('base64url'),
    trustProxy: trustProxy(env.TRUST_PROXY),
    secureCookies: env.SECURE_COOKIES ?? publicUrl.startsWith('https://'),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    smtpSinkPort: env.SMTP_SINK_PORT,
    inbound: {
      port: env.INBOUND_SMTP_PORT,
      replyDomain: (env.REPLY_DOMAIN ?? new URL(publicUrl).hostname).toLowerCase(),
      maxBytes: env.INBOUND_MAX_BYTES,
    },
    timeZone: env.TIME_ZONE,
    dkim: dkim(env),
    digestSchedule: { daily: env.DIGEST_DAILY_CRON, weekly: env.DIGEST_WEEKLY_CRON, timeZone: env.TIME_ZONE },
    mailConcurrency: env.MAIL_CONCURRENCY,
    mailOutboxRetentionDays: env.MAIL_OUTBOX_RETENTION_DAYS,
    metricsToken: env.METRICS_TOKEN,
    rateLimits: {
      accountFailures: env.RATE_LIMIT_ACCOUNT_FAILURES_MAX,
      mailLinks: env.RATE_LIMIT_MAIL_LINKS_MAX,
      auth: env.RATE_LIMIT_AUTH_MAX,
      posting: env.RATE_LIMIT_POST_MAX,
      events: env.RATE_LIMIT_EVENT_MAX,
      shares: env.RATE_LIMIT_SHARE_MAX,
      comments: env.RATE_LIMIT_COMMENT_MAX,
      mailReplies: env.RATE_LIMIT_MAIL_REPLY_MAX,
      media: env.RATE_LIMIT_MEDIA_MAX,
    },
    media: {
      store: env.MEDIA_STORE,
      directory: env.MEDIA_DIR,
      s3: env.S3_URL ? { url: env.S3_URL, bucket: env.S3_BUCKET, region: env.S3_REGION } : null,
      orphanHours: env.MEDIA_ORPHAN_HOURS,
    },
    logLevel: env.LOG_LEVEL,
    scrypt: { N: env.SCRYPT_N, r: 8, p: 1 },
    passwordHashing: { concurrency: env.PASSWORD_HASH_CONCURRENCY, queue: env.PASSWORD_HASH_QUEUE },
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    projectionPageEvents: env.PROJECTION_PAGE_EVENTS,
    monitoring: {
      storageQuotaBytes: env.STORAGE_QUOTA_BYTES ?? null,
      thresholds: {
        responseP95Ms: env.ALERT_RESPONSE_P95_MS,
        projectionLag: env.ALERT_PROJECTION_LAG,
        poolUsage: 0.8,
        failedJobs: 1,
        storageUsage: env.ALERT_STORAGE_USAGE,
        mailBacklogSeconds: env.ALERT_MAIL_BACKLOG_SECONDS,
      },
      hostingUsageUrl: env.HOSTING_USAGE_URL ?? null,
      hostingBillingUrl: env.HOSTING_BILLING_URL ?? null,
    },
  };
}
