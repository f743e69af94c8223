// Ranking inside long chunks and other spellings (issue 38, decision 417): of two chunks holding
// the same question words as often, the one where they stand together ranks first; a word spelt the
// British way finds the text that spells it the American way; and the cut-off, calibrated on the
// best passage of the question, keeps a paraphrase's answer while a question about a name the
// collection never mentions still sends nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textCollection, type TextCollection } from '../../../test/knowledge-collection';

let collection: TextCollection;

/** Sentences of everyday words that no question below uses, to make a chunk long. */
const filler = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `The harbour report number ${from + i} was filed on time by the clerk.`).join(' ');

const ITEMS: [string, string][] = [
  // The same question words, once each: far apart in the first, in one sentence in the second,
  // which is also the longer (one more word), so that word counts alone rank the first higher.
  ['First notes', `The path. ${filler(30)} Together.`],
  ['Second notes', `${filler(15)} The path segments go together. ${filler(15, 15)}`],
  ['Valgrind', 'Valgrind warns that deflate reads uninitialized bytes of the window; this is intentional.'],
  ['Weather', 'Rain is expected on the coast tomorrow, with strong winds in the afternoon.'],
  ['Bakery', 'The bakery sells bread, pastries and cakes from seven in the morning.'],
  ['Trains', 'Trains to the airport leave every twenty minutes from the central station.'],
];

beforeAll(async () => {
  collection = await textCollection('Passages', ITEMS);
});

afterAll(() => collection.close());

const search = (query: string) => collection.search(query);

describe('passages inside chunks', () => {
  it('ranks the chunk whose question words stand in one sentence above one holding them far apart', async () => {
    expect((await search('How do I glue a path together?'))[0]).toBe('Second notes');
  });

  it('sends the answer to a long paraphrased question that shares only two of its words with it', async () => {
    expect((await search('How do I glue several folder names together into one path?'))[0]).toBe('Second notes');
  });

  it('finds a text that spells a word the other way ("uninitialised" for "uninitialized")', async () => {
    expect(await search('uninitialised')).toEqual(['Valgrind']);
  });

  it('sends nothing for a question whose topic, a noun, no chunk holds, though its verb matches ("sell skateboards" to a bakery)', async () => {
    expect(await search('Do you sell skateboards?')).toEqual([]);
  });

  it('sends nothing for a question about names the collection never mentions', async () => {
    expect(await search('How did Moses part the Red Sea?')).toEqual([]);
  });
});
