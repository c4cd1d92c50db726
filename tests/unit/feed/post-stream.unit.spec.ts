import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import type { Actor, CommandMetadata } from '../../../shared/domain';
import { type PostCommand, type PostEvent, postDecider } from '../../../shared/feed/post-stream';
import { NewPostSchema, ReasonSchema } from '../../../shared/feed/schemas';
import { deciderSpec } from '../../support/decider-spec';

const spec = deciderSpec(postDecider);
const now = new Date('2025-03-01T10:00:00.000Z');
const at = now.toISOString();
const POST_ID = 'post-1';
const author: Actor = { id: 'member-1', role: 'member' };
const reader: Actor = { id: 'member-2', role: 'subscriber' };
const staff: Actor = { id: 'staff-1', role: 'staff' };
const admin: Actor = { id: 'admin-1', role: 'admin' };
const by = (actor: Actor | null): CommandMetadata => ({ now, actor });
const command = <Type extends Exclude<PostCommand['type'], 'SubmitPost'>>(type: Type, actor: Actor | null) =>
  ({ type, data: {}, metadata: by(actor) }) as Extract<PostCommand, { type: Type }>;

const newPost = { content: 'WKRC signed on in 1924.', mediaType: null, mediaUrl: null, mediaTitle: null, tags: ['radio', 'history'] };
function submitted(approved: boolean, actor: Actor = author, submittedAt = '2025-02-01T00:00:00.000Z'): PostEvent {
  return {
    type: 'PostSubmitted',
    data: { id: POST_ID, authorId: actor.id, authorRole: actor.role, ...newPost, submittedAt, approved },
  };
}
const pending = submitted(false);
const approvedPost = [pending, { type: 'PostApproved', data: { by: staff.id, at } }] satisfies PostEvent[];
const pinned: PostEvent = { type: 'PostPinned', data: { by: staff.id, at } };
const deleted: PostEvent = { type: 'PostDeleted', data: { by: author.id, at } };

describe('SubmitPost', () => {
  const submit = (actor: Actor | null): PostCommand => ({ type: 'SubmitPost', data: { id: POST_ID, ...newPost }, metadata: by(actor) });

  it('puts a member’s post in the moderation queue', () => {
    spec
      .given([])
      .when(submit(author))
      .then([submitted(false, author, at)]);
  });

  it('approves admin and staff posts at once', () => {
    for (const actor of [admin, staff]) {
      const [event] = postDecider.decide(submit(actor), postDecider.initialState());
      expect(event).toEqual(submitted(true, actor, at));
    }
  });

  it('keeps a subscriber’s post pending too', () => {
    const [event] = postDecider.decide(submit(reader), postDecider.initialState());
    expect(event?.type === 'PostSubmitted' && event.data.approved).toBe(false);
  });

  it('needs a signed-in member', () => {
    spec.given([]).when(submit(null)).thenThrows('unauthenticated', 'Not signed in');
  });

  it('refuses a second submission with the same id', () => {
    spec.given([pending]).when(submit(author)).thenThrows('conflict', 'This post already exists');
  });
});

describe('moderation', () => {
  it('lets staff approve a pending post', () => {
    spec
      .given([pending])
      .when(command('ApprovePost', staff))
      .then([{ type: 'PostApproved', data: { by: staff.id, at } }]);
  });

  it('is a no-op to approve an approved post', () => {
    spec.given(approvedPost).when(command('ApprovePost', admin)).then([]);
  });

  it('lets an admin reject a pending post with a reason', () => {
    spec
      .given([pending])
      .when({ type: 'RejectPost', data: { reason: 'Off topic' }, metadata: by(admin) })
      .then([{ type: 'PostRejected', data: { by: admin.id, reason: 'Off topic', at } }]);
  });

  it('unpins a pinned post it takes down', () => {
    spec
      .given([...approvedPost, pinned])
      .when(command('RejectPost', staff))
      .then([
        { type: 'PostUnpinned', data: { by: staff.id, at } },
        { type: 'PostRejected', data: { by: staff.id, at } },
      ]);
  });

  it('is a no-op to reject a rejected post, and a rejected post can still be approved', () => {
    const rejected: PostEvent = { type: 'PostRejected', data: { by: staff.id, at } };
    spec.given([pending, rejected]).when(command('RejectPost', staff)).then([]);
    spec
      .given([pending, rejected])
      .when(command('ApprovePost', staff))
      .then([{ type: 'PostApproved', data: { by: staff.id, at } }]);
  });

  it('refuses members', () => {
    spec.given([pending]).when(command('ApprovePost', author)).thenThrows('forbidden', 'Only admins and staff can approve posts');
    spec.given([pending]).when(command('RejectPost', author)).thenThrows('forbidden', 'Only admins and staff can reject posts');
  });

  it('lets staff pin and unpin an approved post', () => {
    spec
      .given(approvedPost)
      .when(command('PinPost', staff))
      .then([{ type: 'PostPinned', data: { by: staff.id, at } }]);
    spec
      .given([...approvedPost, pinned])
      .when(command('UnpinPost', admin))
      .then([{ type: 'PostUnpinned', data: { by: admin.id, at } }]);
  });

  it('is a no-op to pin a pinned post or unpin an unpinned one', () => {
    spec
      .given([...approvedPost, pinned])
      .when(command('PinPost', staff))
      .then([]);
    spec.given(approvedPost).when(command('UnpinPost', staff)).then([]);
  });

  it('refuses to pin a pending post', () => {
    spec.given([pending]).when(command('PinPost', staff)).thenThrows('rule', 'Only approved posts can be pinned');
  });

  it('refuses members pinning', () => {
    spec.given(approvedPost).when(command('PinPost', author)).thenThrows('forbidden', 'Only admins and staff can pin posts');
    spec
      .given([...approvedPost, pinned])
      .when(command('UnpinPost', author))
      .thenThrows('forbidden', 'Only admins and staff can unpin posts');
  });
});

describe('likes', () => {
  const liked: PostEvent = { type: 'PostLiked', data: { memberId: reader.id } };

  it('records a like', () => {
    spec.given(approvedPost).when(command('LikePost', reader)).then([liked]);
  });

  it('is a no-op to like twice', () => {
    spec
      .given([...approvedPost, liked])
      .when(command('LikePost', reader))
      .then([]);
  });

  it('lets a member like again after unliking', () => {
    spec
      .given([...approvedPost, liked, { type: 'PostUnliked', data: { memberId: reader.id } }])
      .when(command('LikePost', reader))
      .then([liked]);
  });

  it('records an unlike, and is a no-op when there was no like', () => {
    spec
      .given([...approvedPost, liked])
      .when(command('UnlikePost', reader))
      .then([{ type: 'PostUnliked', data: { memberId: reader.id } }]);
    spec.given(approvedPost).when(command('UnlikePost', reader)).then([]);
  });

  it('refuses likes on a post not approved', () => {
    spec.given([pending]).when(command('LikePost', author)).thenThrows('rule', 'Only approved posts can be liked');
  });

  it('needs a signed-in member', () => {
    spec.given(approvedPost).when(command('LikePost', null)).thenThrows('unauthenticated', 'Not signed in');
  });
});

describe('shares', () => {
  it('counts every share, by members and by anonymous readers', () => {
    spec
      .given(approvedPost)
      .when(command('SharePost', reader))
      .then([{ type: 'PostShared', data: { memberId: reader.id } }]);
    spec
      .given([...approvedPost, { type: 'PostShared', data: { memberId: reader.id } }])
      .when(command('SharePost', null))
      .then([{ type: 'PostShared', data: { memberId: null } }]);
  });

  it('refuses shares of a post not approved', () => {
    spec.given([pending]).when(command('SharePost', author)).thenThrows('rule', 'Only approved posts can be shared');
  });
});

describe('reports', () => {
  const report = (actor: Actor, reason?: string): PostCommand => ({
    type: 'ReportPost',
    data: reason ? { reason } : {},
    metadata: by(actor),
  });

  it('records a report with its reason', () => {
    spec
      .given(approvedPost)
      .when(report(reader, 'Spam'))
      .then([{ type: 'PostReported', data: { memberId: reader.id, reason: 'Spam', at } }]);
  });

  it('counts one report per member', () => {
    spec
      .given([...approvedPost, { type: 'PostReported', data: { memberId: reader.id, at } }])
      .when(report(reader, 'Again'))
      .then([]);
  });

  it('refuses a report of a post not approved', () => {
    spec.given([pending]).when(report(author)).thenThrows('rule', 'Only approved posts can be reported');
  });

  it('refuses a report of your own post', () => {
    spec.given(approvedPost).when(report(author)).thenThrows('rule', 'You cannot report your own post');
  });

  it('has its reports dismissed by staff only, after which a member may report again', () => {
    const reported: PostEvent = { type: 'PostReported', data: { memberId: reader.id, at } };
    const dismissed: PostEvent = { type: 'PostReportsDismissed', data: { by: staff.id, at } };
    spec
      .given([...approvedPost, reported])
      .when(command('DismissPostReports', staff))
      .then([dismissed]);
    spec
      .given([...approvedPost, reported])
      .when(command('DismissPostReports', author))
      .thenThrows('forbidden', 'Only admins and staff can dismiss reports');
    spec.given(approvedPost).when(command('DismissPostReports', staff)).then([]);
    spec
      .given([...approvedPost, reported, dismissed])
      .when(report(reader, 'Again'))
      .then([{ type: 'PostReported', data: { memberId: reader.id, reason: 'Again', at } }]);
  });
});

describe('DeletePost', () => {
  it('lets the author delete their post', () => {
    spec.given([pending]).when(command('DeletePost', author)).then([deleted]);
  });

  it('lets staff delete anyone’s post', () => {
    spec
      .given(approvedPost)
      .when(command('DeletePost', staff))
      .then([{ type: 'PostDeleted', data: { by: staff.id, at } }]);
  });

  it('refuses other members', () => {
    spec.given(approvedPost).when(command('DeletePost', reader)).thenThrows('forbidden', 'Only the author or staff can delete this post');
  });

  it('leaves a deleted post accepting no command', () => {
    for (const type of ['DeletePost', 'ApprovePost', 'LikePost', 'UnlikePost', 'SharePost', 'PinPost'] as const) {
      spec
        .given([...approvedPost, deleted])
        .when(command(type, admin))
        .thenThrows('not_found', 'Post not found');
    }
  });

  it('is not found for a post that never existed', () => {
    spec.given([]).when(command('LikePost', reader)).thenThrows('not_found', 'Post not found');
  });

  it('is not found for a member who may not see it (another’s pending or rejected post), whatever the command', () => {
    const rejected: PostEvent = { type: 'PostRejected', data: { by: staff.id, at } };
    for (const events of [[pending], [pending, rejected]])
      for (const type of ['LikePost', 'UnlikePost', 'SharePost', 'DeletePost', 'ApprovePost', 'DismissPostReports'] as const) {
        spec.given(events).when(command(type, reader)).thenThrows('not_found', 'Post not found');
        spec.given(events).when(command(type, null)).thenThrows('not_found', 'Post not found');
      }
  });
});

describe('NewPostSchema', () => {
  const firstIssue = (input: unknown) => v.safeParse(NewPostSchema, input).issues?.[0];

  it('trims the content and fills absent media with null', () => {
    expect(v.parse(NewPostSchema, { content: '  Hello  ' })).toEqual({
      mediaId: null,
      content: 'Hello',
      mediaType: null,
      mediaUrl: null,
      mediaTitle: null,
      tags: [],
    });
  });

  it('normalises tags', () => {
    expect(v.parse(NewPostSchema, { content: 'x', tags: ['#Radio', ' radio ', '', 'TV'] }).tags).toEqual(['radio', 'tv']);
  });

  it('requires content', () => {
    expect(firstIssue({ content: '   ' })?.message).toBe('Post content is required');
    expect(firstIssue({})?.message).toBe('Post content is required');
  });

  it('limits content to 5,000 characters', () => {
    expect(v.safeParse(NewPostSchema, { content: 'x'.repeat(5000) }).success).toBe(true);
    expect(firstIssue({ content: 'x'.repeat(5001) })?.message).toBe('Post content must be at most 5,000 characters');
  });

  it('keeps media with a type, URL and title', () => {
    expect(
      v.parse(NewPostSchema, { content: 'x', mediaType: 'image', mediaUrl: ' https://img.example.org/a.png ', mediaTitle: ' Tower ' }),
    ).toMatchObject({
      mediaType: 'image',
      mediaUrl: 'https://img.example.org/a.png',
      mediaTitle: 'Tower',
    });
  });

  it('treats a URL without a type as a link, and drops a title without a URL', () => {
    expect(v.parse(NewPostSchema, { content: 'x', mediaUrl: 'http://example.org' })).toMatchObject({
      mediaType: 'link',
      mediaUrl: 'http://example.org',
    });
    expect(v.parse(NewPostSchema, { content: 'x', mediaUrl: '', mediaTitle: 'Lonely' })).toMatchObject({
      mediaType: null,
      mediaUrl: null,
      mediaTitle: null,
    });
  });

  it('refuses a media type without a URL', () => {
    const issue = firstIssue({ content: 'x', mediaType: 'video' });
    expect(issue?.message).toBe('Add a media URL for the chosen media type');
    expect(issue && v.getDotPath(issue)).toBe('mediaUrl');
  });

  it('refuses URLs that are not http or https', () => {
    for (const mediaUrl of ['javascript:alert(1)', 'data:text/html,<script>', 'ftp://example.org/a', 'not a url']) {
      expect(firstIssue({ content: 'x', mediaUrl })?.message).toBe('Media URL must start with http:// or https://');
    }
  });

  it('requires a YouTube video link for the youtube type', () => {
    expect(v.parse(NewPostSchema, { content: 'x', mediaType: 'youtube', mediaUrl: 'https://youtu.be/dQw4w9WgXcQ' }).mediaType).toBe(
      'youtube',
    );
    expect(firstIssue({ content: 'x', mediaType: 'youtube', mediaUrl: 'https://vimeo.com/1' })?.message).toMatch(
      /^Enter a YouTube video link/,
    );
  });

  it('refuses an unknown media type and a long media title', () => {
    expect(firstIssue({ content: 'x', mediaType: 'gif', mediaUrl: 'https://a.org' })?.message).toBe(
      'Media type must be one of image, video, audio, youtube, link',
    );
    expect(firstIssue({ content: 'x', mediaUrl: 'https://a.org', mediaTitle: 't'.repeat(201) })?.message).toBe(
      'Media title must be at most 200 characters',
    );
  });
});

describe('ReasonSchema', () => {
  it('accepts an empty body and a trimmed reason', () => {
    expect(v.parse(ReasonSchema, undefined)).toEqual({});
    expect(v.parse(ReasonSchema, { reason: ' Spam ' })).toEqual({ reason: 'Spam' });
    expect(v.safeParse(ReasonSchema, { reason: 'x'.repeat(501) }).issues?.[0]?.message).toBe('Reason must be at most 500 characters');
  });
});

describe('EditPost', () => {
  const text = { content: 'WKRC signed on in 1925.', mediaType: null, mediaUrl: null, mediaTitle: null, tags: ['radio'] };
  const edit = (actor: Actor | null, data = text): PostCommand => ({ type: 'EditPost', data, metadata: by(actor) });
  const held: PostEvent = { type: 'PostRevisionSubmitted', data: { ...text, by: author.id, at } };

  it('replaces the text of a pending post at once', () => {
    spec
      .given([pending])
      .when(edit(author))
      .then([{ type: 'PostEdited', data: { ...text, by: author.id, at } }]);
  });

  it('holds a member’s edit of an approved post for review; a second edit replaces the held one', () => {
    spec.given(approvedPost).when(edit(author)).then([held]);
    const second = { ...text, content: 'WKRC signed on in 1926.' };
    spec
      .given([...approvedPost, held])
      .when(edit(author, second))
      .then([{ type: 'PostRevisionSubmitted', data: { ...second, by: author.id, at } }]);
    spec
      .given([...approvedPost, held])
      .when(edit(author))
      .then([]);
  });

  it('applies staff edits at once', () => {
    spec
      .given(approvedPost)
      .when(edit(staff))
      .then([{ type: 'PostEdited', data: { ...text, by: staff.id, at } }]);
  });

  it('sends a rejected post its author edits back for review', () => {
    spec
      .given([pending, { type: 'PostRejected', data: { by: staff.id, at } }])
      .when(edit(author))
      .then([{ type: 'PostEdited', data: { ...text, by: author.id, at, resubmitted: true } }]);
  });

  it('approves or rejects the held edit, not the post', () => {
    spec
      .given([...approvedPost, held])
      .when(command('ApprovePost', staff))
      .then([{ type: 'PostRevisionApproved', data: { by: staff.id, at } }]);
    spec
      .given([...approvedPost, held])
      .when({ type: 'RejectPost', data: { reason: 'No' }, metadata: by(staff) })
      .then([{ type: 'PostRevisionRejected', data: { by: staff.id, reason: 'No', at } }]);
    spec
      .given([...approvedPost, held, { type: 'PostRevisionApproved', data: { by: staff.id, at } }])
      .when(command('ApprovePost', staff))
      .then([]);
  });

  it('changes nothing when the text is the same', () => {
    spec
      .given(approvedPost)
      .when(edit(staff, { ...newPost }))
      .then([]);
  });

  it('refuses other members and deleted posts', () => {
    spec.given(approvedPost).when(edit(reader)).thenThrows('forbidden', 'Only the author or staff can edit this post');
    spec
      .given([...approvedPost, deleted])
      .when(edit(author))
      .thenThrows('not_found', 'Post not found');
  });
});
