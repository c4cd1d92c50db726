/** Mail settings read from the environment: the SMTP sink kept out of production, the outbox's retention. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../platform/config';

const production = {
  NODE_ENV: 'production',
  SESSION_SECRET: 'production-secret-production-secret-0123',
  EMAIL_CLAIM_SECRET: 'production-claims-production-claims-0123',
};

describe('the in-process SMTP sink in production', () => {
  it('refuses to start a production site without SMTP_URL, saying what to set', () => {
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, ROLES: 'workers' })).toThrow(
      /SMTP_URL is required in production.*SMTP_SINK_IN_PRODUCTION=true/,
    );
    expect(() => loadConfig({ ...production, ROLES: 'api' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, SMTP_SINK_IN_PRODUCTION: 'false' })).toThrow(ConfigError);
  });

  it('starts with a relay, when the sink is explicitly enabled, outside production, or for a process that neither sends nor shows mail', () => {
    expect(loadConfig({ ...production, SMTP_URL: 'smtp://relay.example.org:587' }).smtpUrl).toBe('smtp://relay.example.org:587');
    expect(loadConfig({ ...production, SMTP_SINK_IN_PRODUCTION: 'true' }).smtpUrl).toBeUndefined();
    expect(loadConfig({ ...production, SMTP_SINK_IN_PRODUCTION: '1' }).smtpUrl).toBeUndefined();
    expect(loadConfig({ ...production, ROLES: 'projections' }).roles).toEqual(new Set(['projections']));
    expect(loadConfig({ ...production, NODE_ENV: 'development' }).smtpUrl).toBeUndefined();
  });

  it('takes only a boolean', () => {
    expect(() => loadConfig({ ...production, SMTP_SINK_IN_PRODUCTION: 'yes' })).toThrow(/SMTP_SINK_IN_PRODUCTION/);
  });
});

describe('MAIL_OUTBOX_RETENTION_DAYS', () => {
  it('defaults to 30 days and takes a whole number of at least one day', () => {
    expect(loadConfig({ ...production, SMTP_URL: 'smtp://relay' }).mailOutboxRetentionDays).toBe(30);
    expect(loadConfig({ ...production, SMTP_URL: 'smtp://relay', MAIL_OUTBOX_RETENTION_DAYS: '90' }).mailOutboxRetentionDays).toBe(90);
    for (const invalid of ['0', '1.5', 'forever'])
      expect(() => loadConfig({ ...production, SMTP_URL: 'smtp://relay', MAIL_OUTBOX_RETENTION_DAYS: invalid })).toThrow(
        /MAIL_OUTBOX_RETENTION_DAYS/,
      );
  });
});
