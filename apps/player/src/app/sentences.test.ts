import { describe, expect, it } from 'vitest';
import { takeSentences } from './sentences';

describe('streamed sentences', () => {
  it('releases complete sentences and keeps the rest', () => {
    expect(takeSentences('Hello there. How are')).toEqual({ sentences: ['Hello there.'], rest: ' How are' });
    expect(takeSentences('One! Two? Three')).toEqual({ sentences: ['One!', 'Two?'], rest: ' Three' });
  });

  it('waits when the buffer ends on a full stop (it may be a number like 3.5)', () => {
    expect(takeSentences('It costs 3.')).toEqual({ sentences: [], rest: 'It costs 3.' });
  });
});
