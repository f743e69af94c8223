// Streaming replies are spoken sentence by sentence, as soon as each sentence is complete.
export function takeSentences(buffer: string): { sentences: string[]; rest: string } {
  const sentences: string[] = [];
  const re = /[^.!?。！？]*[.!?。！？]+(?=\s|$)/gu;
  let last = 0;
  for (const m of buffer.matchAll(re)) {
    const end = (m.index ?? 0) + m[0].length;
    if (end === buffer.length) break; // the last one may still grow ("3." of "3.5")
    const s = buffer.slice(last, end).trim();
    if (s) sentences.push(s);
    last = end;
  }
  return { sentences, rest: buffer.slice(last) };
}
