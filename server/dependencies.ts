/**
 * What the HTTP role needs from the composition root (main/services.ts). Each
 * route plugin names only the parts it uses, so a reader sees a route's reach in
 * its signature and a test can build it from those parts alone.
 */
import type pg from 'pg';
import type { Redis } from 'ioredis';
import type { Config } from '../platform/config';
import type { EventStore } from '../platform/event-store/port';
import type { DocumentStore } from '../platform/document-store/port';
import type { PersonalDataKeys } from '../platform/personal-data/keys';
import type { CommandHandler } from '../platform/command-handler';
import type { ProjectionProgress } from '../platform/projections/progress';
import type { ChangeNotice, ProjectionRunner } from '../platform/projections/runner';
import type { MailMessage } from '../platform/mail/message';
import type { Mailbox } from '../platform/mail/smtp-sink';
import type { Presence } from './realtime/presence';
import type { MediaStorage } from '../platform/media-storage/port';

/** The mail queue's figures and the subscription outbox's, as monitoring shows them. */
export interface MailFigures {
  jobs: { waiting?: number; active?: number; failed?: number; delayed?: number };
  /** Repeating jobs (the digests), each holding one delayed job for its next run. */
  scheduledJobs: number;
  outbox: { queued: number; oldestQueuedSeconds: number; sentLastHour: number; bounced: number };
}

export interface ApiDependencies {
  config: Config;
  pool: pg.Pool;
  eventStore: EventStore;
  /** The keys that seal personal data in the log; erasing a member destroys theirs (docs/domain/members.md#erasure). */
  personalDataKeys: PersonalDataKeys;
  store: DocumentStore;
  redis: Redis;
  progress: ProjectionProgress;
  /** How far the mail runner has got: an erasure answers once its copies of the address are gone too. */
  mailProgress: Pick<ProjectionProgress, 'waitFor'>;
  runner: Pick<ProjectionRunner, 'name' | 'failure' | 'subscription'>;
  handle: CommandHandler;
  publish(notice: ChangeNotice): void;
  presence: Presence;
  /** Queues a ready message (sign-in links); `jobId` names its cause, so a repeat adds nothing. */
  mail: { enqueue(jobId: string, message: MailMessage): Promise<void> };
  mailbox: Mailbox;
  mailFigures(): Promise<MailFigures>;
  /** Uploaded files (docs/domain/media.md#storage). */
  media: MediaStorage;
  now(): Date;
  /** The zone event times are shown in: as admins set it (PATCH /api/admin/site), else the configuration's TIME_ZONE. */
  siteTimeZone(): Promise<string>;
}
