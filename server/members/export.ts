/**
 * The readable part of a member's export (`GET /api/me/export`, docs/domain/members.md#export): what they wrote and
 * answered, as documents with plain field names, read from each feature's read models through its `index.ts` by the
 * member's id (authorship, not the log's actor: content written by a script or an import is theirs too). The raw log
 * is the export's appendix (`activity`).
 */
import type { DocumentStore } from '../../platform/document-store/port';
import { feedPosts } from '../../projections/feed';
import { blogPosts } from '../../projections/blog';
import { commentsCollection } from '../../projections/comments';
import { atOccurrence, eventDetails, memberEvents } from '../../projections/events';
import { repliesCollection, topicsCollection } from '../../projections/discussions';
import { replyLink, topicLink } from '../../shared/discussions/links';
import type { AccountExport } from '../../shared/members/erasure';

type Documents = Pick<AccountExport, 'posts' | 'blogPosts' | 'comments' | 'discussions' | 'events' | 'rsvps'>;

const RSVP_ANSWERS: Record<string, string> = {
  attending: 'attending',
  maybe: 'maybe',
  not_attending: 'not attending',
  waitlisted: 'waiting for a place',
};

export async function exportDocuments(store: DocumentStore, memberId: string, publicUrl: string): Promise<Documents> {
  const postUrl = (id: string) => `${publicUrl}/posts/${id}`;
  const blogUrl = (id: string) => `${publicUrl}/blog/${id}`;
  const eventUrl = (id: string) => `${publicUrl}/events/${id}`;
  const [posts, blog, comments, organised, links, topics, replies] = await Promise.all([
    feedPosts(store).find({ authorId: memberId }, { sort: { createdAt: 1, _id: 1 } }),
    blogPosts(store).find({ authorId: memberId }, { sort: { createdAt: 1, _id: 1 } }),
    commentsCollection(store).find({ authorId: memberId }, { sort: { createdAt: 1, _id: 1 } }),
    eventDetails(store).find({ organizerId: memberId }, { sort: { startDate: 1, _id: 1 } }),
    memberEvents(store).find({ memberId }),
    topicsCollection(store).find({ authorId: memberId }, { sort: { createdAt: 1, _id: 1 } }),
    repliesCollection(store).find({ authorId: memberId }, { sort: { createdAt: 1, _id: 1 } }),
  ]);
  const answered = links.filter((link) => link.rsvp !== null);
  const answeredEvents =
    answered.length === 0
      ? []
      : await eventDetails(store).find({ _id: { $in: answered.map((link) => link.eventId) } }, { sort: { startDate: 1, _id: 1 } });
  const answeredById = new Map(answeredEvents.map((event) => [event._id, event]));
  return {
    posts: posts.map((post) => ({
      id: post._id,
      text: post.content,
      tags: post.tags,
      media: post.media
        ? { kind: post.media.kind, url: post.media.url, title: post.mediaTitle }
        : post.mediaUrl
          ? { kind: post.mediaType ?? 'link', url: post.mediaUrl, title: post.mediaTitle }
          : null,
      status: post.status,
      rejectionReason: post.rejectionReason,
      postedAt: post.createdAt,
      editedAt: post.editedAt ?? null,
      likes: post.likes,
      comments: post.comments,
      url: postUrl(post._id),
    })),
    blogPosts: blog.map((post) => ({
      id: post._id,
      title: post.title,
      excerpt: post.excerpt,
      text: post.content,
      tags: post.tags,
      published: post.isPublished,
      publishedAt: post.publishedAt,
      writtenAt: post.createdAt,
      url: `${publicUrl}/blog/${post.slug}`,
    })),
    comments: comments.map((comment) => ({
      id: comment._id,
      on:
        comment.targetType === 'blog'
          ? { kind: 'blog post' as const, id: comment.targetId, url: blogUrl(comment.targetId) }
          : { kind: 'post' as const, id: comment.targetId, url: postUrl(comment.targetId) },
      inReplyTo: comment.parentId,
      text: comment.content,
      writtenAt: comment.createdAt,
      editedAt: comment.editedAt,
      removed: comment.removed,
    })),
    discussions: {
      topics: topics.map((topic) => ({
        id: topic._id,
        title: topic.title,
        text: topic.content,
        tags: topic.tags,
        startedAt: topic.createdAt,
        editedAt: topic.editedAt,
        url: `${publicUrl}${topicLink(topic._id)}`,
      })),
      replies: replies.map((reply) => ({
        id: reply._id,
        topicId: reply.topicId,
        text: reply.content,
        writtenAt: reply.createdAt,
        editedAt: reply.editedAt,
        deleted: reply.deleted,
        url: `${publicUrl}${replyLink(reply.topicId, reply._id)}`,
      })),
    },
    events: organised.map((event) => ({
      id: event._id,
      title: event.title,
      description: event.description,
      startsAt: event.startDate,
      endsAt: event.endDate,
      allDay: event.allDay,
      location: event.location,
      online: event.isVirtual,
      public: event.isPublic,
      status: event.status,
      cancelled: event.isCancelled ?? false,
      createdAt: event.createdAt,
      url: eventUrl(event._id),
    })),
    // Each answer, to an event or to one later date of a series (at that date), by start.
    rsvps: answered
      .flatMap((link) => {
        const event = answeredById.get(link.eventId);
        if (!event) return [];
        const startsAt = link.occurrence ? atOccurrence(event, link.occurrence).startDate : event.startDate;
        return [
          {
            event: { id: event._id, title: event.title, startsAt, url: eventUrl(event._id) },
            answer: RSVP_ANSWERS[link.rsvp!] ?? link.rsvp!,
          },
        ];
      })
      .sort((a, b) => a.event.startsAt.localeCompare(b.event.startsAt) || a.event.id.localeCompare(b.event.id)),
  };
}
