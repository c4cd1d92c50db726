/**
 * The development mailbox, for admins: mail caught by the in-process SMTP sink. It holds other people's sign-in,
 * confirmation and unsubscribe links, so it is admin only and shows those links with their token masked.
 */
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { CapturedMailSchema, MailSummarySchema } from '../../shared/mailbox/schemas';
import { fail } from '../../shared/domain';
import { text } from '../../shared/text-schema';
import { ADMIN } from '../http/access';
import { ErrorSchema, type ValibotTypeProvider } from '../http/openapi';
import { maskLinkTokens } from './masked-links';
import type { CapturedMail, Mailbox } from '../../platform/mail/smtp-sink';

function masked(mail: CapturedMail): CapturedMail {
  return {
    ...mail,
    subject: maskLinkTokens(mail.subject),
    headers: Object.fromEntries(Object.entries(mail.headers).map(([name, value]) => [name, maskLinkTokens(value)])),
    text: maskLinkTokens(mail.text),
    html: maskLinkTokens(mail.html),
  };
}

const MailParams = v.object({ id: text() });

export async function mailboxRoutes(fastify: FastifyInstance, { mailbox }: { mailbox: Mailbox }) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const tags = ['mailbox'];
  app.get('/api/admin/mailbox', { config: { access: ADMIN }, schema: { summary: 'Mail caught by the development sink, newest first', tags, response: { 200: v.array(MailSummarySchema) } } }, async () => (await mailbox.list()).map((mail) => ({ ...mail, subject: maskLinkTokens(mail.subject) })));
  app.get('/api/admin/mailbox/:id', { config: { access: ADMIN }, schema: { summary: 'One caught message, headers, text and HTML', tags, params: MailParams, response: { 200: CapturedMailSchema, 404: ErrorSchema } } }, async (request) => {
    const mail = await mailbox.get(request.params.id);
    if (!mail) throw fail.notFound('No such message');
    return masked(mail);
  });
}
