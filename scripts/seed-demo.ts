/**
 * `npm run seed:demo`: a small, believable community, appended through the same
 * commands the site runs (registration through the HTTP API, then the post and
 * blog deciders with a clock set in the past), so a newcomer sees a living
 * site. Refuses to touch a database whose event log is not empty.
 */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { loadConfig } from '../platform/config';
import { atWallTime, dayKey } from '../shared/events/dates';
import { createServices } from '../main/services';
import { buildApp } from '../server/app';
import { streamName } from '../shared/streams';
import type { Actor, Role } from '../shared/domain';
import { postDecider } from '../shared/feed/post-stream';
import { commentDecider } from '../shared/comments/comment-stream';
import { blogPostDecider } from '../shared/blog/blog-stream';
import { sanitizeBlogHtml } from '../shared/blog/sanitize';
import { generateExcerpt } from '../shared/blog/excerpt';
import { normalizeTags } from '../shared/feed/tags';
import { calendarEventDecider } from '../shared/events/event-stream';
import { EventSchema } from '../shared/events/schemas';
import * as v from 'valibot';
import { categoryDecider } from '../shared/discussions/category-stream';
import { topicDecider } from '../shared/discussions/topic-stream';
import { replyDecider } from '../shared/discussions/reply-stream';
import { categorySlug } from '../shared/discussions/rules';

export const DEMO_PASSWORD = 'broadcast-history';

const PEOPLE: { firstName: string; lastName: string; role: Role }[] = [
  { firstName: 'Margaret', lastName: 'Hollis', role: 'admin' },
  { firstName: 'Walter', lastName: 'Brandt', role: 'admin' },
  ...[
    ['Dorothy', 'Kane'],
    ['Frank', 'Okafor'],
    ['Lucille', 'Marsh'],
  ].map(([firstName, lastName]) => ({ firstName: firstName!, lastName: lastName!, role: 'staff' as Role })),
  ...[
    ['Harold', 'Stein'],
    ['Irene', 'Castillo'],
    ['Gus', 'Lindqvist'],
    ['Ruth', 'Abernathy'],
    ['Earl', 'Washington'],
    ['Peggy', 'Novak'],
    ['Sam', 'Delgado'],
  ].map(([firstName, lastName]) => ({ firstName: firstName!, lastName: lastName!, role: 'member' as Role })),
  ...[
    ['Alice', 'Tran'],
    ['Bernard', 'Cole'],
    ['Joan', 'Whitfield'],
  ].map(([firstName, lastName]) => ({ firstName: firstName!, lastName: lastName!, role: 'subscriber' as Role })),
];

/** Comments under the first posts, in order: the third replies to the first. */
const COMMENTS: string[][] = [
  [
    'My father worked the transmitter shift there in the sixties. He said the tower hummed on cold nights.',
    'Does anyone know if the old studio building still stands?',
    'It does! It is an insurance office now, but the call letters are still carved over the door.',
  ],
  [
    'I still have a reel of that broadcast somewhere in the basement. I will look for it this weekend.',
    'Please digitise it if you can, the archive would love a copy.',
    'Seconded. Let us know if you need a reel-to-reel deck, I can lend one.',
  ],
  ['What a find. The handwriting on the log sheet looks like the chief engineer’s.'],
];

const POSTS = [
  {
    content: 'Found my father’s engineering log from the night WGN-TV signed on in 1948. Every tube change is written down in pencil.',
    tags: ['wgn', 'television', 'archives'],
  },
  {
    content: 'Does anyone remember the farm report at 5:15 every morning on WLS? My grandmother planned the whole day around it.',
    tags: ['radio', 'wls', 'farm'],
  },
  {
    content: 'Restored a 1952 studio microphone this weekend. It still hums like it wants to go on air.',
    tags: ['equipment', 'restoration'],
    mediaType: 'link' as const,
    mediaUrl: 'https://en.wikipedia.org/wiki/RCA_44',
  },
  {
    content: 'The first color broadcast I ever saw was a Cubs game at the corner tavern. The green of the ivy looked unreal.',
    tags: ['television', 'sports', 'color'],
  },
  {
    content:
      'Working on an oral history of the women who ran the switchboards at the downtown stations. Please reach out if your mother or aunt worked there.',
    tags: ['oral-history', 'community'],
  },
  {
    content: 'Today in 1921: KYW began broadcasting from the Commonwealth Edison building. A century of voices since.',
    tags: ['anniversary', 'radio', 'kyw'],
  },
];

const BLOG_POSTS = [
  {
    title: 'When the towers went up: a short history of our first transmitters',
    content:
      '<h2>Steel, copper and nerve</h2><p>The first towers were raised by crews who had never built anything so tall. They worked through two winters.</p><blockquote>“We could see the beacon from the lake on a clear night.”</blockquote><p>This post collects the stories our members shared.</p>',
    pinned: true,
    featured: false,
  },
  {
    title: 'Preserving reel-to-reel tapes at home',
    content:
      '<p>Tapes from the fifties and sixties are fragile. Here is what our archivists recommend:</p><ul><li>Store them upright, away from heat.</li><li>Never rewind a sticky tape: ask for help.</li><li>Digitise at 96 kHz when you can.</li></ul>',
    pinned: false,
    featured: true,
  },
  {
    title: 'The voices of the overnight shift',
    content: '<p>Overnight announcers kept truckers, nurses and insomniacs company. We interviewed five of them.</p>',
    pinned: false,
    featured: false,
  },
];

/**
 * Demo events start at noon in the community's time zone and last at most 5 hours: no event runs past midnight there,
 * nor in UTC (where the screenshots are taken).
 */
const START_HOUR = 12;
const EVENTS = [
  { title: 'WGN engineers reunion', eventType: 'reunion', location: 'Tribune Tower lobby', inDays: 12, hours: 3, maxAttendees: 40 },
  { title: 'Memorial for Ray Castillo, voice of the overnight', eventType: 'memorial', location: 'St. James Chapel', inDays: 5, hours: 2 },
  {
    title: '75 years of television in the state',
    eventType: 'anniversary',
    location: 'State History Museum',
    inDays: 30,
    hours: 4,
    featured: true,
  },
  {
    title: 'Archiving reel-to-reel tapes (online workshop)',
    eventType: 'meeting',
    isVirtual: true,
    virtualLink: 'https://meet.example.org/tapes',
    inDays: 9,
    hours: 1,
  },
  { title: 'Radio days picnic', eventType: 'celebration', location: 'Lakeside Park', inDays: -14, hours: 5 },
  // A series: on the start's weekday, eight times (the start is always one of its days).
  {
    title: 'Tape digitising night',
    eventType: 'meeting',
    location: 'Community room, Public Library',
    inDays: 3,
    hours: 2,
    maxAttendees: 12,
    recurrenceRule: 'FREQ=WEEKLY;COUNT=8',
  },
] as const;

/** Discussion categories, and topics in them with their replies (HTML, as the composer writes it). */
const CATEGORIES = [
  { name: 'Stations and People', description: 'Who worked where, and the stories they tell.', color: '#1a6fb0' },
  { name: 'Equipment', description: 'Transmitters, consoles, remote trucks and the tubes inside them.', color: '#b0561a' },
  { name: 'Memories', description: 'What you heard, where you were, who you listened with.', color: '#2f7d4f' },
];
const TOPICS = [
  {
    category: 0,
    title: 'Who remembers the KRNT night crew?',
    content: '<p>KRNT ran all night in the sixties. Who was on the board after midnight, and who read the farm report at five?</p>',
    tags: ['krnt', 'night shift'],
    replies: [
      '<p>My uncle Walt ran the board from 1964 to 1969. He said the coffee was the worst in the state.</p>',
      '<p>The farm report was Bill Ames. He drove in from Ankeny in every kind of weather.</p>',
      '<blockquote><p>the worst in the state</p></blockquote><p>Walt was right about the coffee. I was the intern who made it.</p>',
    ],
  },
  {
    category: 1,
    title: 'Identifying this 1950s remote truck',
    content: '<p>Found a photo of a panel truck with a roof antenna at the 1956 state fair. Whose was it?</p>',
    tags: ['remote', 'trucks'],
    replies: ['<p>The antenna mount looks like a Collins. WOI had one like it.</p>'],
  },
  {
    category: 2,
    title: 'The first broadcast you remember',
    content: '<p>Mine was the 1952 election returns on a Zenith in my grandmother’s kitchen. Yours?</p>',
    tags: ['memories'],
    replies: ['<p>A Saturday matinee serial on WHO. I was six and terrified.</p>', '<p>The moon landing, on three stations at once.</p>'],
  },
];

const days = (n: number) => n * 24 * 3600 * 1000;
/**
 * The log's record of who acted, as the HTTP routes write it: without it a member's export (member_activity) would not
 * count these events as theirs.
 */
const by = (actor: Actor) => ({ actorId: actor.id });

async function main() {
  // The seed registers many accounts from one address in a moment; the sign-in rate limit is for people.
  const config = loadConfig({ ...process.env, ROLES: 'api,projections', LOG_LEVEL: 'warn', RATE_LIMIT_AUTH_MAX: '1000' });
  const services = await createServices(config, pino({ level: 'warn' }));
  try {
    if ((await services.eventStore.headPosition()) > 0) {
      console.error('The event log is not empty: the demo seed only runs on a fresh database. Point DATABASE_URL at a new one.');
      process.exitCode = 1;
      return;
    }
    await services.readModels.start();
    const { app } = await buildApp(services, { logger: false, serveClient: false });
    const domain = new URL(config.publicUrl).hostname === 'localhost' ? 'demo.local' : new URL(config.publicUrl).hostname;

    // The links that finish registering, as the register route queues them for mailing, by address.
    const queuedLinks = new Map<string, string>();
    services.mail.queue.on('waiting', (job: { name: string; data: { to?: string; text?: string } }) => {
      const path = job.data.text?.match(/\/api\/auth\/register\/confirm\/[\w-]+/)?.[0];
      if (job.name === 'send' && job.data.to && path) queuedLinks.set(job.data.to, path);
    });
    const registrationLink = async (email: string) => {
      for (let i = 0; i < 500 && !queuedLinks.has(email); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      const path = queuedLinks.get(email);
      if (!path) throw new Error(`No registration link was queued for ${email}`);
      return path;
    };
    const members: (Actor & { name: string })[] = [];
    let adminCookie = '';
    for (const person of PEOPLE) {
      const email = `${person.firstName.toLowerCase()}.${person.lastName.toLowerCase()}@${domain}`;
      const asked = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email, password: DEMO_PASSWORD, firstName: person.firstName, lastName: person.lastName },
      });
      if (asked.statusCode !== 202) throw new Error(`Could not register ${email}: ${asked.body}`);
      // Registration finishes through the link it mails (docs/domain/members.md#registration): taken from the queue.
      const finished = await app.inject({ method: 'POST', url: await registrationLink(email), payload: {} });
      if (finished.statusCode !== 303) throw new Error(`Could not finish registering ${email}: ${finished.body}`);
      const cookie = finished.headers['set-cookie']!.toString().split(';')[0]!;
      const user = (await app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).json<{ id: string; role: Role }>();
      if (user.role === 'admin') adminCookie = cookie;
      else if (person.role !== 'member') {
        const promoted = await app.inject({
          method: 'PUT',
          url: `/api/admin/users/${user.id}/role`,
          payload: { role: person.role },
          headers: { cookie: adminCookie },
        });
        if (promoted.statusCode !== 200) throw new Error(`Could not set the role of ${email}: ${promoted.body}`);
      }
      members.push({ id: user.id, role: person.role, name: `${person.firstName} ${person.lastName}` });
    }

    const start = Date.now() - days(20);
    const at = (offset: number) => ({ now: new Date(start + offset) });
    const moderator = members.find((m) => m.role === 'staff')!;
    for (const [index, post] of POSTS.entries()) {
      const author = members[(index * 3 + 2) % members.length]!;
      const id = randomUUID();
      const stream = streamName('post', id);
      const when = at(days(index * 3));
      const { content, tags, mediaType, mediaUrl } = { mediaType: null, mediaUrl: null, ...post };
      await services.handle(
        postDecider,
        stream,
        {
          type: 'SubmitPost',
          data: { id, content, tags: normalizeTags(tags), mediaType, mediaUrl, mediaTitle: null },
          metadata: { ...when, actor: author },
        },
        by(author),
      );
      if (author.role === 'member' || author.role === 'subscriber')
        await services.handle(
          postDecider,
          stream,
          { type: 'ApprovePost', data: {}, metadata: { now: new Date(start + days(index * 3) + 3_600_000), actor: moderator } },
          by(moderator),
        );
      for (const liker of members.slice(0, 4 + index * 2))
        if (liker.role !== 'subscriber' || index % 2 === 0)
          await services.handle(
            postDecider,
            stream,
            { type: 'LikePost', data: {}, metadata: { now: new Date(start + days(index * 3 + 1)), actor: liker } },
            by(liker),
          );
      // A short conversation under the first posts: two comments and a reply to the first.
      const talkers = members.filter((m) => m.role !== 'subscriber' && m.id !== author.id);
      let first: { id: string; parentId: null; removed: false } | null = null;
      for (const [turn, content] of (COMMENTS[index] ?? []).entries()) {
        const commentId = randomUUID();
        const parent = turn === 2 && first ? { ...first, targetType: 'post' as const, targetId: id } : null;
        const talker = talkers[(index + turn * 2) % talkers.length]!;
        await services.handle(
          commentDecider,
          streamName('comment', commentId),
          {
            type: 'WriteComment',
            data: { id: commentId, targetType: 'post', targetId: id, content, parent },
            metadata: { now: new Date(start + days(index * 3 + 1) + (turn + 1) * 3_600_000), actor: talker },
          },
          by(talker),
        );
        if (turn === 0) first = { id: commentId, parentId: null, removed: false };
      }
    }
    const pendingAuthor = members.find((m) => m.role === 'member')!;
    const pendingId = randomUUID();
    await services.handle(
      postDecider,
      streamName('post', pendingId),
      {
        type: 'SubmitPost',
        data: {
          id: pendingId,
          content: 'Is there a list of every station call sign change since 1950? I would love to help build one.',
          tags: ['call-signs'],
          mediaType: null,
          mediaUrl: null,
          mediaTitle: null,
        },
        metadata: { now: new Date(Date.now() - 3_600_000), actor: pendingAuthor },
      },
      by(pendingAuthor),
    );

    const writer = members.find((m) => m.role === 'staff')!;
    for (const [index, post] of BLOG_POSTS.entries()) {
      const id = randomUUID();
      const content = sanitizeBlogHtml(post.content);
      await services.handle(
        blogPostDecider,
        streamName('blog', id),
        {
          type: 'CreateBlogPost',
          data: {
            id,
            title: post.title,
            content,
            excerpt: generateExcerpt(content),
            tags: [],
            isPublished: true,
            isPinned: post.pinned,
            isFeatured: post.featured,
          },
          metadata: { ...at(days(5 + index * 4)), actor: writer },
        },
        by(writer),
      );
    }

    const organizer = members.find((m) => m.role === 'admin')!;
    for (const item of EVENTS) {
      const id = randomUUID();
      const start = atWallTime(dayKey(new Date(Date.now() + days(item.inDays)), config.timeZone), START_HOUR, config.timeZone);
      const fields = v.parse(EventSchema, {
        ...item,
        startDate: start.toISOString(),
        endDate: new Date(start.getTime() + item.hours * 3_600_000).toISOString(),
      });
      const stream = streamName('event', id);
      await services.handle(
        calendarEventDecider,
        stream,
        { type: 'ScheduleEvent', data: { id, fields }, metadata: { now: new Date(Date.now() - days(30)), actor: organizer } },
        by(organizer),
      );
      if ('featured' in item)
        await services.handle(
          calendarEventDecider,
          stream,
          { type: 'FeatureEvent', data: {}, metadata: { now: new Date(), actor: organizer } },
          by(organizer),
        );
      if (item.inDays > 0)
        for (const guest of members.filter((m) => m.role === 'member').slice(0, 4))
          await services.handle(
            calendarEventDecider,
            stream,
            { type: 'SetRsvp', data: { status: 'attending' }, metadata: { now: new Date(), actor: guest } },
            by(guest),
          );
    }

    // Discussions: the categories staff made, and a few topics with replies from the members.
    const categoryIds: string[] = [];
    for (const category of CATEGORIES) {
      const id = randomUUID();
      await services.handle(
        categoryDecider,
        streamName('category', id),
        {
          type: 'CreateCategory',
          data: { id, slug: categorySlug(category.name), ...category },
          metadata: { now: new Date(Date.now() - days(25)), actor: moderator },
        },
        by(moderator),
      );
      categoryIds.push(id);
    }
    const writers = members.filter((m) => m.role === 'member' || m.role === 'staff');
    for (const [index, topic] of TOPICS.entries()) {
      const id = randomUUID();
      const author = writers[index % writers.length]!;
      const begun = start + days(index * 4);
      await services.handle(
        topicDecider,
        streamName('topic', id),
        {
          type: 'StartTopic',
          data: { id, categoryId: categoryIds[topic.category]!, title: topic.title, content: topic.content, tags: topic.tags },
          metadata: { now: new Date(begun), actor: author },
        },
        by(author),
      );
      for (const [turn, content] of topic.replies.entries()) {
        const replyId = randomUUID();
        const writer = writers[(index + turn + 1) % writers.length]!;
        await services.handle(
          replyDecider,
          streamName('reply', replyId),
          {
            type: 'PostReply',
            data: { id: replyId, topic: { id, locked: false }, replyTo: null, content },
            metadata: { now: new Date(begun + days(turn + 1)), actor: writer },
          },
          by(writer),
        );
      }
    }

    await app.close();
    console.log(
      `Seeded ${members.length} members, ${POSTS.length + 1} posts, ${BLOG_POSTS.length} blog posts, ${EVENTS.length} events and ${TOPICS.length} discussion topics.`,
    );
    console.log(
      `Sign in as margaret.hollis@${domain} (admin), dorothy.kane@${domain} (staff) or harold.stein@${domain} (member), password "${DEMO_PASSWORD}".`,
    );
  } finally {
    await services.close();
  }
}

await main();
