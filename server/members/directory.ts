/**
 * The member directory members pick from when they mention someone (`GET /api/members?q=`: names and pictures,
 * never addresses), and the resolution of the `@First Last` mentions in a post or comment to members.
 */
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { text } from '../../shared/text-schema';
import { escapeRegex } from '../../shared/text';
import { displayName } from '../../shared/members/display';
import { MENTIONS_MAX, mentionCandidates } from '../../shared/members/mentions';
import { ROLES } from '../../shared/domain';
import type { DocumentStore, Filter } from '../../platform/document-store/port';
import { membersCollection } from '../../projections/members';
import { routeOptions, type ValibotTypeProvider } from '../http/openapi';
import { findPage, mapPage, pageQuery } from '../http/pagination';
import { pageSchema } from '../../shared/page';
import type { ApiDependencies } from '../dependencies';

const DirectoryQuery = v.object({ ...pageQuery(8), q: v.optional(v.pipe(text(), v.trim(), v.maxLength(80)), '') });
const BY_NAME = { firstName: 1, lastName: 1, _id: 1 } as const;
const DirectoryMemberSchema = v.object({ id: v.string(), name: v.string(), avatar: v.nullable(v.string()), role: v.picklist(ROLES) });

/** The members a post or comment mentions: active members named after an `@`, never its author, at most MENTIONS_MAX. */
export async function resolveMentions(store: DocumentStore, content: string, authorId: string): Promise<string[]> {
  const candidates = mentionCandidates(content);
  if (candidates.length === 0) return [];
  const found = await membersCollection(store).find(
    { suspended: false, $or: candidates.map(({ firstName, lastName }) => ({ firstName, lastName })) },
    { limit: MENTIONS_MAX + 1 },
  );
  return found
    .map((member) => member._id)
    .filter((id) => id !== authorId)
    .sort()
    .slice(0, MENTIONS_MAX);
}

export async function directoryRoutes(fastify: FastifyInstance, { services }: { services: Pick<ApiDependencies, 'store'> }) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const members = membersCollection(services.store);
  const route = routeOptions(['members']);
  app.get(
    '/api/members',
    route('signed-in', 'Members whose first (and last) name begins with what was typed, to mention them', {
      querystring: DirectoryQuery,
      response: { 200: pageSchema(DirectoryMemberSchema) },
    }),
    async (request) => {
      const [first = '', ...rest] = request.query.q.replace(/^@/u, '').split(/\s+/u);
      const starts = (word: string) => ({ $regex: `^${escapeRegex(word)}`, $options: 'i' });
      const filter: Filter = rest.length
        ? { suspended: false, firstName: starts(first), lastName: starts(rest.join(' ')) }
        : first
          ? { suspended: false, $or: [{ firstName: starts(first) }, { lastName: starts(first) }] }
          : { suspended: false };
      return mapPage(await findPage(members, filter, BY_NAME, request.query), (member) => ({
        id: member._id,
        name: displayName(member),
        avatar: member.profileImageUrl,
        role: member.role,
      }));
    },
  );
}
