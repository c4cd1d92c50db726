/**
 * The development mailbox, for admins: mail caught by the in-process SMTP sink. It holds other people's sign-in,
 * confirmation and unsubscribe links, so it is admin only and shows those links with their token masked.
 * "Follow this link" (GET /api/admin/mailbox/:id/links/:index) redirects an admin's browser to the real link of a
 * caught mail, so a newcomer can sign in, confirm or reset locally; the token is in the redirect only, never shown.
 * It exists only with the sink (these routes are not registered with SMTP_URL) and answers 404 in production (a
 * staging site running the sink), where the mail belongs to real people.
 */
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { MailSummarySchema, MailViewSchema, type MailView } from '../../shared/mailbox/schemas';
import { fail } from '../../shared/domain';
import { text } from '../../shared/text-schema';
import { ADMIN } from '../http/access';
import { ErrorSchema, redirect, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import { maskLinkTokens, tokenLinks } from './masked-links';
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
const LinkParams = v.object({ id: text(), index: v.pipe(text(), v.regex(/^\d{1,3}$/u, 'Unknown link')) });

export interface MailboxRoutesOptions {
  mailbox: Mailbox;
  /** The site's address: only links to it are followed. */
  publicUrl: string;
  /** Following links is for development; off in production, even with the sink. */
  followLinks: boolean;
}

export async function mailboxRoutes(fastify: FastifyInstance, { mailbox, publicUrl, followLinks }: MailboxRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const route = routeOptions(['mailbox']);
  const origin = new URL(publicUrl).origin;
  const linksOf = (mail: CapturedMail) => tokenLinks(`${mail.text}\n${mail.html}`, origin);
  app.get(
    '/api/admin/mailbox',
    route(ADMIN, 'Mail caught by the development sink, newest first', { response: { 200: v.array(MailSummarySchema) } }),
    async () => (await mailbox.list()).map((mail) => ({ ...mail, subject: maskLinkTokens(mail.subject) })),
  );
  app.get(
    '/api/admin/mailbox/:id',
    route(ADMIN, 'One caught message, headers, text and HTML', { params: MailParams, response: { 200: MailViewSchema, 404: ErrorSchema } }),
    async (request): Promise<MailView> => {
      const mail = await mailbox.get(request.params.id);
      if (!mail) throw fail.notFound('No such message');
      const links = followLinks
        ? linksOf(mail).map(({ masked: shown }, index) => ({
            masked: shown,
            follow: `/api/admin/mailbox/${encodeURIComponent(mail.id)}/links/${index}`,
          }))
        : [];
      return { ...masked(mail), links };
    },
  );
  app.get(
    '/api/admin/mailbox/:id/links/:index',
    route(
      ADMIN,
      'Development only: open the real link (sign-in, confirmation, password reset) of a caught message, by its place among the message’s links; 404 in production',
      { params: LinkParams, response: { 302: redirect('To the link, on this site'), 403: ErrorSchema, 404: ErrorSchema } },
    ),
    async (request, reply) => {
      if (!followLinks) throw fail.notFound('Links are followed only in development');
      // Only the admin's own navigation from the mailbox (or a typed address): another site cannot send them there.
      const site = request.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin' && site !== 'none') throw fail.forbidden('Follow links from the mailbox page');
      const mail = await mailbox.get(request.params.id);
      const link = mail && linksOf(mail)[Number(request.params.index)];
      if (!link) throw fail.notFound('No such link');
      return reply.header('cache-control', 'no-store').redirect(link.address);
    },
  );
}
