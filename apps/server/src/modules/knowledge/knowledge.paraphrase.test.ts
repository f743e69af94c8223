// Questions in other words than the text's (issue 38, decision 413): everyday words the collection
// never uses no longer cut off the answer, a synonym stands in for a word no chunk holds, a name
// the collection never mentions still keeps the search silent, and a first text of a few words
// no longer decides the collection's language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textCollection, type TextCollection } from '../../../test/knowledge-collection';
import { detectLanguage } from './knowledge.language';

let collection: TextCollection;

// Ten short items, so that a word held by one of them is rare (as in a real collection).
const ITEMS: [string, string][] = [
  ['Gallows', 'And Haman made a gallows fifty cubits high, and set it up in the court of his house.'],
  ['Storm', 'The LORD sent out a great wind into the sea, and there was a mighty tempest in the sea.'],
  ['Password rules', 'A password must hold at least one uppercase letter, one digit and twelve characters in all.'],
  ['Feast', 'The king made a feast unto all the people for seven days in the court of the garden of the palace.'],
  ['City', 'Nineveh was an exceeding great city of three days journey, with much cattle.'],
  ['Harvest', 'Ruth gleaned in the field after the reapers until the evening, and beat out that she had gleaned.'],
  ['Timers', 'Schedules execution of a one-time callback after delay milliseconds.'],
  ['Paths', 'The join method joins all given path segments together using the platform-specific separator.'],
  ['Memory', 'Returns the total amount of system memory in bytes as an integer.'],
  ['Licence', 'The library may be used in commercial products; read the licence notice in the header file.'],
];

beforeAll(async () => {
  collection = await textCollection('Paraphrase', ITEMS);
});

afterAll(() => collection.close());

const search = (query: string) => collection.search(query);

describe('questions in other words', () => {
  it('sends the passage when the question adds everyday words no chunk holds ("how tall … built" for "fifty cubits high")', async () => {
    expect((await search('How tall was the gallows that was built?'))[0]).toBe('Gallows');
  });

  it('finds the passage by a synonym of a word no chunk holds ("capitals" where the text says "uppercase")', async () => {
    expect((await search('Does my password need capitals?'))[0]).toBe('Password rules');
    expect((await search('Who sent the storm?'))[0]).toBe('Storm');
  });

  it('sends nothing for a question about names the collection never mentions, though it shares a word with a passage', async () => {
    expect(await search('How did Moses part the Red Sea?')).toEqual([]);
  });

  it('decides no language from a first text of a few words (an English FAQ answer was read as Danish)', () => {
    expect(detectLanguage("Yes. zlib doesn't handle dates.")).toBeNull();
    expect(detectLanguage('Yes. zlib does not handle dates, so the year 2000 is of no concern to it at all.')).toBe('en');
  });
});
