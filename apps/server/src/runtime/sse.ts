// Server-sent events from a streamed HTTP body: yields each event's data (joined lines), parsed
// by `eventsource-parser` (decision 009). An event without a name is a 'message'; an event
// without data is not one; the last event counts even when the body ends without a blank line.
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export async function* readSse(
  body: AsyncIterable<Uint8Array> | null | undefined,
  signal?: AbortSignal,
): AsyncGenerator<{ event: string; data: string }> {
  if (!body) return;
  const decoder = new TextDecoder();
  let ready: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => ready.push(e) });
  const take = () => {
    const out = ready.map((e) => ({ event: e.event || 'message', data: e.data }));
    ready = [];
    return out;
  };
  for await (const chunk of body) {
    if (signal?.aborted) return;
    parser.feed(decoder.decode(chunk, { stream: true }));
    yield* take();
  }
  // A body that ends without the blank line still ends its last event (providers do this).
  parser.feed(`${decoder.decode()}\n\n`);
  yield* take();
}
