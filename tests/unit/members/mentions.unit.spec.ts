import { describe, expect, it } from 'vitest';
import { mentionCandidates, mentionQueryBefore } from '../../../shared/members/mentions';

describe('mention candidates', () => {
  it('reads a first name and a one- or two-word last name after each @', () => {
    expect(mentionCandidates('Thanks @Mary Member, and @Otto van Other!')).toEqual([
      { firstName: 'Mary', lastName: 'Member' },
      { firstName: 'Otto', lastName: 'van' },
      { firstName: 'Otto', lastName: 'van Other' },
    ]);
  });
  it('ignores an @ inside a word, such as an e-mail address', () => {
    expect(mentionCandidates('write to mary@example.org now')).toEqual([]);
  });
  it('keeps accents and apostrophes, and drops trailing punctuation', () => {
    expect(mentionCandidates('@Zoë O’Brien.')).toEqual([{ firstName: 'Zoë', lastName: 'O’Brien' }]);
  });
});

describe('what the picker completes', () => {
  it('is the text after an @ before the caret, up to a first and last name', () => {
    expect(mentionQueryBefore('Hello @Ma')).toBe('Ma');
    expect(mentionQueryBefore('Hello @Mary Me')).toBe('Mary Me');
    expect(mentionQueryBefore('@')).toBe('');
    expect(mentionQueryBefore('mary@exa')).toBeNull();
    expect(mentionQueryBefore('Hello @Mary Member and')).toBeNull();
  });
});
