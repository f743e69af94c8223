// stopword 3.1.5 ships no types: the per-language lists this code reads (ISO 639-3 names).
declare module 'stopword' {
  const lists: Record<string, string[] | undefined>;
  export = lists;
}
