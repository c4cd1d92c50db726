/** The development mailbox (admins): mail the in-process SMTP sink caught, links' tokens masked. */
import * as v from 'valibot';

export const MailSummarySchema = v.object({
  id: v.string(),
  from: v.string(),
  to: v.array(v.string()),
  subject: v.string(),
  date: v.string(),
});
export type MailSummary = v.InferOutput<typeof MailSummarySchema>;

export const CapturedMailSchema = v.object({
  ...MailSummarySchema.entries,
  headers: v.record(v.string(), v.string()),
  text: v.string(),
  html: v.string(),
});
export type CapturedMail = v.InferOutput<typeof CapturedMailSchema>;

/**
 * One caught message as the mailbox shows it: its links that carry a token, masked, each with the address of the
 * admin-only route that opens the real one (development sink only; none where following is off).
 */
export const MailViewSchema = v.object({
  ...CapturedMailSchema.entries,
  links: v.array(v.object({ masked: v.string(), follow: v.string() })),
});
export type MailView = v.InferOutput<typeof MailViewSchema>;
