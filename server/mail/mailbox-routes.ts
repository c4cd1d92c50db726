/**
 * The development mailbox, for admins: mail caught by the in-process SMTP sink. It holds other people's sign-in,
 * confirmation and unsubscribe links, so it is admin only and shows those links with their token masked.
 */
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { fail } from '../../shared/domain';
import { text } from '../../shared/text-schema';
import { ADMIN } from '../http/access';
import { parse } from '../http/errors';
import { maskLinkTokens } from './masked-links';
import type { CapturedMail, Mailbox } from './smtp-sink';

function masked(mail: CapturedMail): CapturedMail {
  return {
    ...mail,
    subject: maskLinkTokens(mail.subject),
    headers: Object.fromEntries(Object.entries(mail.headers).map(([name, value]) => [name, maskLinkTokens(value)])),
    text: maskLinkTokens(mail.text),
    html: maskLinkTokens(mail.html),
  };
}

export async function mailboxRoutes(app: FastifyInstance, { mailbox }: { mailbox: Mailbox }) {
  app.get('/api/admin/mailbox', { config: { access: ADMIN } }, async () => (await mailbox.list()).map((mail) => ({ ...mail, subject: maskLinkTokens(mail.subject) })));
  app.get('/api/admin/mailbox/:id', { config: { access: ADMIN } }, async (request) => {
    const { id } = parse(v.object({ id: text() }), request.params);
    const mail = await mailbox.get(id);
    if (!mail) throw fail.notFound('No such message');
    return masked(mail);
  });
}
