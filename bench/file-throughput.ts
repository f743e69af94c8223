// Upload and download throughput of one 20 MB background video through the real routes (issue 34
// item 4, decision 015), and the process's memory while the download streams. Run:
//   node --import tsx bench/file-throughput.ts        (PGlite; BENCH_DATABASE_URL for PostgreSQL)
// The server and the client share this process, so the memory figures include both.
// No peer and no goal (its figures are decision 015's). Check (issue 37): after the measure, the
// video downloaded once more must equal the video uploaded, byte for byte (SHA-256 and length);
// a difference fails the bench. BENCH_FILE_MB=2 for a small run.
import { createHash, randomBytes } from 'node:crypto';
import { multipart } from '../apps/server/test/avatar-requests';
import { startApiServer } from './api-support';

const MB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_FILE_MB ?? 20) * MB;
const ROUNDS = 5;

async function main(): Promise<void> {
  const server = await startApiServer(0);
  const catalogue = (await (await fetch(`${server.url}/api/catalogue/avatars`)).json()) as { avatars: { id: string; type: string }[] };
  const appearance = catalogue.avatars.find((a) => a.type === '2d')!;
  const video = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom'), randomBytes(SIZE - 12)]);
  const uploads: number[] = [];
  let url = '';
  for (let i = 0; i < ROUNDS; i++) {
    const body = multipart([
      { name: 'json', value: JSON.stringify({ name: `Video ${i}`, dhType: appearance.type, appearanceId: appearance.id }) },
      { name: 'backgroundImage', value: video, filename: 'bg.mp4' },
    ]);
    const t = performance.now();
    const res = await fetch(`${server.url}/api/avatar_v2/add`, {
      method: 'POST',
      headers: { ...body.headers, authorization: server.authorization },
      body: new Uint8Array(body.payload),
    });
    const json = (await res.json()) as { agent: { mediaDetails: { backgroundImage: { url: string }[] } } };
    uploads.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`upload failed: ${JSON.stringify(json)}`);
    url = json.agent.mediaDetails.backgroundImage[0]!.url;
  }
  global.gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  let peakExternal = base.external + base.arrayBuffers;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakExternal = Math.max(peakExternal, m.external + m.arrayBuffers);
  }, 10);
  const downloads: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    const res = await fetch(`${server.url}${url}`);
    let got = 0;
    for await (const chunk of res.body!) got += (chunk as Uint8Array).length;
    downloads.push(performance.now() - t);
    if (got !== SIZE) throw new Error(`downloaded ${got} bytes`);
  }
  clearInterval(sampler);
  const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
  const again = new Uint8Array(await (await fetch(`${server.url}${url}`)).arrayBuffer());
  if (again.length !== SIZE || sha(again) !== sha(video))
    throw new Error(`the video downloaded (${again.length} bytes, sha256 ${sha(again)}) is not the one uploaded (sha256 ${sha(video)})`);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rate = (ms: number) => (SIZE / MB / (ms / 1000)).toFixed(1);
  console.log(
    JSON.stringify({
      database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
      uploadMBps: rate(median(uploads)),
      downloadMBps: rate(median(downloads)),
      rssBeforeMB: (base.rss / MB).toFixed(0),
      rssPeakWhileStreamingMB: (peakRss / MB).toFixed(0),
      heapPeakGrowthMB: ((peakHeap - base.heapUsed) / MB).toFixed(1),
      downloadEqualsUpload: `sha256 ${sha(video).slice(0, 12)}`,
      buffersPeakGrowthMB: ((peakExternal - base.external - base.arrayBuffers) / MB).toFixed(1),
    }),
  );
  await server.close();
}

void main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
