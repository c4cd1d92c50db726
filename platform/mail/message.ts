import * as v from 'valibot';

/** One e-mail to send: what a mail job carries (a job is a boundary, so it is parsed). */
export const MailMessageSchema = v.object({
  to: v.pipe(v.string(), v.email()),
  subject: v.pipe(v.string(), v.minLength(1)),
  text: v.string(),
  html: v.string(),
  headers: v.optional(v.record(v.string(), v.string())),
});

export type MailMessage = v.InferOutput<typeof MailMessageSchema>;
