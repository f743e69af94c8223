import { describe, expect, it } from 'vitest';
import { classify, isSmallTalk, saidItDidNotKnow, similarity, type StoredMessage } from './gap-classify';

const at = new Date('2026-01-01T10:00:00Z');
const user = (text: string): StoredMessage => ({ role: 'user', text, at, knowledgeHits: null });
const avatar = (text: string, knowledgeHits: number | null): StoredMessage => ({ role: 'assistant', text, at, knowledgeHits });

describe('which questions a conversation left unanswered', () => {
  it('counts a search that found nothing, an answer that did not know, and a question asked again in other words', () => {
    const questions = classify(
      [
        { role: 'wake_up', text: 'Greet the visitor.', at, knowledgeHits: 0 },
        avatar('Hello!', 0),
        user('Do you ship to Canada?'),
        avatar('Shipping is free over 50 euros.', 0),
        user('When are you open?'),
        avatar("I'm not sure about that.", 2),
        user('What is the refund policy?'),
        avatar('Refunds within 30 days.', 1),
        user('How do I get a refund for shoes?'),
        avatar('Refunds within 30 days.', 1),
        user('Thanks'),
        avatar('You are welcome.', null),
      ],
      [['ship', 'canada'], ['open'], ['refund', 'polici'], ['refund', 'shoe'], ['thank']],
    );
    expect(questions.map((q) => [q.text, q.outcome, q.reason])).toEqual([
      ['Do you ship to Canada?', 'unanswered', 'no_knowledge'],
      ['When are you open?', 'unanswered', 'did_not_know'],
      ['What is the refund policy?', 'unanswered', 'asked_again'],
      ['How do I get a refund for shoes?', 'knowledge', undefined],
      ['Thanks', 'other', undefined],
    ]);
  });

  it('reads the usual ways of not knowing, and tells small talk from questions', () => {
    for (const t of [
      'I do not know that.',
      "Sorry, I don't have that information.",
      'We could not find anything',
      'I have no information about that.',
    ])
      expect(saidItDidNotKnow(t), t).toBe(true);
    expect(saidItDidNotKnow('We know the answer: 9 to 5.')).toBe(false);
    expect(isSmallTalk('Hello!')).toBe(true);
    expect(isSmallTalk('ok thanks, bye')).toBe(true);
    expect(isSmallTalk('hello, do you ship?')).toBe(false);
    expect(similarity(['ship', 'canada'], ['deliv', 'parcel', 'canada'])).toBe(0.5);
    expect(similarity(['ship', 'canada'], [])).toBe(0);
  });
});
