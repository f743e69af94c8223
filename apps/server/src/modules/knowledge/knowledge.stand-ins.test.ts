// The visitor's own words before stand-ins (issue 38, decision 422), through the search API: only
// the rarest words some chunk holds are ranked (MAX_TERM_WORDS), and a synonym standing for an
// absent word is rare by choice; it must not take a ranked place from a word the visitor wrote.
// An absent word's nearest words stand in as one group (decision 427): the passage using the
// third of them is found, and one holding two of them counts the word once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textCollection, type TextCollection } from '../../../test/knowledge-collection';

let collection: TextCollection;

const ITEMS: [string, string][] = [
  ['Decoder', 'Characters whose bytes arrive split in two are joined again before decoding.'],
  ['Mail', 'A message can be broken across the pages of a collection.'],
  ...Array.from({ length: 5 }, (_, i): [string, string] => [
    `Counter ${i}`,
    `Counter ${i} reports the bytes and characters of a file, to avoid losing data.`,
  ]),
  ['Ferry', 'The ferry leaves for the island at seven each morning.'],
  ['Ship museum', 'The ship museum on the island opens each morning.'],
  ['Fleet', 'A ship and a vessel and a ferry: the fleet of the island each morning.'],
  ...Array.from({ length: 30 }, (_, i): [string, string] => [
    `Harbour ${i}`,
    `The harbour report number ${i} was filed on time by the clerk.`,
  ]),
];

beforeAll(async () => {
  collection = await textCollection('Manual', ITEMS);
});

afterAll(() => collection.close());

describe('stand-ins for absent words', () => {
  it('do not take the ranked places of the words the visitor wrote', async () => {
    const found = await collection.search(
      "How do I avoid broken characters when one letter's bytes are split across two pieces of incoming data?",
    );
    expect(found[0]).toBe('Decoder');
  });

  it("let any of an absent word's first held neighbours stand for it, each chunk counting its best one once", async () => {
    // "boat" is absent; its held neighbours, nearest first, are "ship", "vessel" and "ferry". With
    // only the first standing in, the museum's "ship" outranked the ferry's timetable.
    const found = await collection.search('When does the boat leave for the island each morning?');
    expect(found[0]).toBe('Ferry');
    // Three of the word's neighbours in one passage weigh as one: the fleet does not pass the ferry.
    expect(found.indexOf('Fleet')).toBeGreaterThan(0);
  });
});
