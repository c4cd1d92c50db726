/** Content made through the API as members and staff make it: events and feed posts, created and approved. */
import { expect } from 'vitest';
import type { Browser } from './http';

/** An event `organiser` creates from `fields` (201 expected); its id. */
export async function createEvent(organiser: Browser, fields: Record<string, unknown>): Promise<string> {
  const created = await organiser.post('/api/events', fields);
  expect(created.status).toBe(201);
  return created.body.id as string;
}

/** An event `organiser` creates from `fields`, approved by `moderator` (200 expected); its id. */
export async function approvedEvent(organiser: Browser, moderator: Browser, fields: Record<string, unknown>): Promise<string> {
  const id = await createEvent(organiser, fields);
  expect((await moderator.put(`/api/admin/events/${id}/approve`)).status).toBe(200);
  return id;
}

/** A feed post `author` submits (201 expected), approved by `moderator` (200 expected); its id. */
export async function approvedPost(author: Browser, moderator: Browser, post: { content: string; tags?: string[] }): Promise<string> {
  const created = await author.post('/api/posts', post);
  expect(created.status).toBe(201);
  expect((await moderator.put(`/api/admin/posts/${created.body.id}/approve`)).status).toBe(200);
  return created.body.id as string;
}
