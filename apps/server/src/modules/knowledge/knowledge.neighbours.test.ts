// Nearest words for paraphrased questions (issue 38, decision 420), through the search API: a long
// question's words no chunk holds, nor any synonym of them, find a passage through their nearest
// words; a short question about something the collection lacks still sends nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textCollection, type TextCollection } from '../../../test/knowledge-collection';

let collection: TextCollection;

const ITEMS: [string, string][] = [
  ['Storm', 'The crew were afraid and cast the cargo into the sea to lighten the vessel.'],
  ['Workshop', 'Our mechanics repair bicycles of every brand; a basic service costs 49 euros.'],
  ...Array.from({ length: 40 }, (_, i): [string, string] => [
    `Report ${i}`,
    `The harbour report number ${i} was filed on time by the clerk.`,
  ]),
];

beforeAll(async () => {
  collection = await textCollection('Stories', ITEMS);
});

afterAll(() => collection.close());

describe('paraphrased questions', () => {
  it('finds a passage through the nearest words of a long question’s absent word', async () => {
    expect(await collection.search('What did the frightened sailors throw overboard during the gale?')).toContain('Storm');
  });

  it('still sends nothing to a short question about something the collection lacks', async () => {
    expect(await collection.search('Do you repair cars?')).toEqual([]);
  });
});
