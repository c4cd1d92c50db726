/** The development mailbox for staff: mail caught by the in-process SMTP sink. */
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { fail } from '../../shared/domain';
import { STAFF } from '../http/access';
import { parse } from '../http/errors';
import type { Mailbox } from './smtp-sink';

export async function mailboxRoutes(app: FastifyInstance, { mailbox }: { mailbox: Mailbox }) {
  app.get('/api/admin/mailbox', { config: { access: STAFF } }, () => mailbox.list());
  app.get('/api/admin/mailbox/:id', { config: { access: STAFF } }, async (request) => {
    const { id } = parse(v.object({ id: v.string() }), request.params);
    const mail = await mailbox.get(id);
    if (!mail) throw fail.notFound('No such message');
    return mail;
  });
}
