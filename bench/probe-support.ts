// The probe of bench/knowledge-ingestion.ts, in its own process (so its clock and its sockets do
// not share the server's event loop): GET one URL every PROBE_EVERY_MS, one request at a time
// (the next one waits for the answer), until told to stop; answers the latencies and the rate.
// Messages: { start: { url, authorization } } → { stop: true } → reply { latencies, seconds }.
const PROBE_EVERY_MS = 50;

let running = false;
let latencies: number[] = [];
let started = 0;

async function loop(url: string, authorization: string): Promise<void> {
  while (running) {
    const t = performance.now();
    try {
      const res = await fetch(url, { headers: { authorization } });
      await res.arrayBuffer();
      if (res.ok) latencies.push(performance.now() - t);
    } catch {
      // a refused or reset request is not an answer
    }
    const wait = PROBE_EVERY_MS - (performance.now() - t);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}

let current: Promise<void> = Promise.resolve();
process.on('message', (m: { start?: { url: string; authorization: string }; stop?: boolean; exit?: boolean }) => {
  if (m.start) {
    latencies = [];
    started = performance.now();
    running = true;
    current = loop(m.start.url, m.start.authorization);
  } else if (m.stop) {
    running = false;
    void current.then(() => process.send!({ latencies, seconds: (performance.now() - started) / 1000 }));
  } else if (m.exit) {
    process.exit(0);
  }
});
process.send!({ ready: true });
