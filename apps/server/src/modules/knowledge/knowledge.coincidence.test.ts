// The cut-off's coincidence rule and the English prior on document frequencies (issue 38,
// decisions 418, 419): a passage sharing a single word with a short question whose noun the
// collection lacks is not sent ("Do you repair cars?" to a bike shop), one sharing two of its words
// is, and so is one sharing a word with a longer question that paraphrases its noun; a word
// PostgreSQL drops as a stop word ("off") gets no synonym ("cancelled") standing in for it; and of two words
// held by as many chunks, the everyday one ("stop") weighs less than the technical one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textCollection, type TextCollection } from '../../../test/knowledge-collection';

let collection: TextCollection;

const ITEMS: [string, string][] = [
  ['Workshop', 'Our mechanics repair bicycles of every brand; a basic service costs 49 euros.'],
  ['Parking', 'Customers park free of charge for one hour in the garage behind the shop.'],
  ['Orders', 'Cancelled orders are refunded within five days.'],
  ['Signals', 'Send a signal to stop it.'],
  ['Separator', 'On Windows the delimiter between the entries of a list is a semicolon, on POSIX a colon.'],
  ['Jonah', 'And Jonah was in the belly of the fish three days and three nights.'],
  // A collection of some size: in one of five items any word is rare enough to fall under the floor.
  ...Array.from({ length: 40 }, (_, i): [string, string] => [
    `Report ${i}`,
    `The harbour report number ${i} was filed on time by the clerk.`,
  ]),
];

beforeAll(async () => {
  collection = await textCollection('Bike shop', ITEMS);
});

afterAll(() => collection.close());

const search = (query: string) => collection.search(query);

describe('coincidental passages', () => {
  it('sends nothing when the only word a passage shares is incidental and the question’s noun is in no chunk', async () => {
    expect(await search('Do you repair cars?')).toEqual([]);
  });

  it('sends the answer to a longer question that paraphrases its noun ("prophet" for "Jonah") and shares one word with it', async () => {
    expect((await search('How long was the prophet inside the fish?'))[0]).toBe('Jonah');
  });

  it('sends a passage that shares two words of a question whose noun is in no chunk', async () => {
    expect((await search('Can I park my car at the shop?'))[0]).toBe('Parking');
  });

  it('gives a word dropped as a stop word ("off") no synonym ("cancelled") to stand in for it', async () => {
    expect(await search('Is it off?')).toEqual([]);
  });

  it('weighs an everyday word below a technical one that as many chunks hold', async () => {
    expect((await search('stop delimiter'))[0]).toBe('Separator');
  });
});
