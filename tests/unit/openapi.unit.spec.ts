import { describe, expect, it } from 'vitest';
import { operationIdOf } from '../../server/http/openapi';

describe('operationIdOf', () => {
  it('names an API operation by its method and address, parameters as By…', () => {
    expect(operationIdOf('GET', '/api/posts')).toBe('getPosts');
    expect(operationIdOf('GET', '/api/posts/:id/comments')).toBe('getPostsByIdComments');
    expect(operationIdOf('PUT', '/api/admin/reports/:targetType/:targetId/dismiss')).toBe('putAdminReportsByTargetTypeByTargetIdDismiss');
    expect(operationIdOf('GET', '/api/calendar.ics')).toBe('getCalendarIcs');
    expect(operationIdOf('POST', '/api/auth/magic-link')).toBe('postAuthMagicLink');
  });

  it('names pages apart from the API answers at the same address', () => {
    expect(operationIdOf('GET', '/blog/:id', true)).toBe('getBlogByIdPage');
    expect(operationIdOf('GET', '/api/blog/:id')).toBe('getBlogById');
    expect(operationIdOf('GET', '/')).toBe('getRoot');
  });
});
