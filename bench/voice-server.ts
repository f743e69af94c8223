// Voice, server side (issue 14): from `user_speech end` to the first binary audio frame on the
// socket, with STT, LLM and TTS stand-ins adding known fixed delays (the product's own speech:
// the OpenAI audio API; an OpenAI-compatible model). The peer, measured in the same run and
// interleaved, is the same three stand-ins called directly one after the other (transcription,
// chat completion to the end of the first sentence, speech of that sentence): Parla's overhead
// is the paired difference. Endpointing delay is set to 0 (it is a configured wait, not
// overhead). Also: barge-in, from the start of speech over the avatar to `assistant_done
// {interrupted}`, beyond min_interruption_duration.
// Goals: overhead ≤ 150 ms p50 and ≤ 300 ms p95 (the whole voice-to-voice path; the browser's
// part is the player's bench); barge-in ≤ 200 ms p95 beyond min_interruption_duration.
// Peer check (issue 37), every measured turn: the peer's model stream reached the first sentence
// "Sure." and Parla's `assistant_done` text begins with it; Parla's first audio frame is pcm16 at
// the peer's rate (24 kHz) and its samples are the start of the peer's speech of that sentence
// (read whole after its timing), byte for byte. A difference fails the bench.
//
//   node --import tsx bench/voice-server.ts        (BENCH_TURNS=100 for more; BENCH_NO_DOC=1 keeps docs/performance.md)
import WebSocket from 'ws';
import { Agent, fetch, FormData } from 'undici';
import { decodeAudioFrame } from '../packages/shared/src/audio-frames';
import { startOpenAiAudioStandIn, SPEECH_STAND_IN_KEY } from '../apps/server/test/stand-ins/runtime/openai-audio';
import { startOpenAiStandIn, STAND_IN_KEY } from '../apps/server/test/stand-ins/runtime/openai';
import { wav } from '../apps/server/src/runtime/engines/wav';
import { DEFAULT_TURN_SETTINGS, type SpeechConfig } from '../apps/server/src/runtime/types';
import { ms, startBenchServer } from './conversation-support';
import { pct, table, verdict, writeSection } from './report-support';

const TURNS = Number(process.env.BENCH_TURNS ?? 40);
const STT_MS = 100;
const LLM_MS = 150;
const TTS_MS = 100;
const MIN_INTERRUPTION = 0.3;
const GOAL = { p50: 150, p95: 300, barge95: 200 };
const REPLY = ['Sure. ', 'We open at nine ', 'and close at five.'];
const UTTERANCE = Buffer.alloc(6400, 1);

type Message = { type: string; interrupted?: boolean; turnId?: string; text?: string };
type Frame = { format: string; sampleRate?: number; seq: number; audio: Buffer };
const PEER_RATE = 24_000;

class Voice {
  private listeners: ((m: Message | 'audio') => void)[] = [];
  /** The audio frames and the last assistant_done since the caller last cleared them. */
  frames: Frame[] = [];
  done: Message | null = null;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const decoded = isBinary ? decodeAudioFrame(data as Buffer) : null;
      if (decoded?.ok) this.frames.push({ ...decoded.header, audio: Buffer.from(decoded.audio) });
      const m: Message | 'audio' = decoded
        ? decoded.ok
          ? 'audio'
          : ({ type: 'bad-frame' } as Message)
        : (JSON.parse(String(data)) as Message);
      if (m !== 'audio' && m.type === 'assistant_done') this.done = m;
      for (const l of [...this.listeners]) l(m);
    });
  }
  static async open(host: string, avatarId: string): Promise<Voice> {
    const ws = new WebSocket(`ws://${host}/ws/conversation?avatarId=${avatarId}`);
    const v = new Voice(ws);
    const ready = v.until((m) => m !== 'audio' && m.type === 'ready');
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'hello', deviceId: `bench-${Date.now()}` }));
    await ready;
    return v;
  }
  until(pred: (m: Message | 'audio') => boolean, timeoutMs = 10_000): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
      const l = (m: Message | 'audio') => {
        if (!pred(m)) return;
        clearTimeout(timer);
        this.listeners = this.listeners.filter((x) => x !== l);
        resolve(performance.now());
      };
      this.listeners.push(l);
    });
  }
  send(m: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(m));
  }
  speak(at: number): number {
    this.send({ type: 'user_speech', event: 'start', at });
    for (let i = 0; i < 3; i++) this.ws.send(UTTERANCE, { binary: true });
    const t0 = performance.now();
    this.send({ type: 'user_speech', event: 'end', at: at + 600 });
    return t0;
  }
}

/** The peer: the three stand-ins called directly, one after the other, to the first sentence's audio. */
async function direct(audioUrl: string, llmUrl: string, agent: Agent): Promise<{ ms: number; sentence: string; pcm: Buffer }> {
  const t0 = performance.now();
  const form = new FormData();
  form.set(
    'file',
    new Blob([new Uint8Array(wav(Buffer.concat([UTTERANCE, UTTERANCE, UTTERANCE]), 16000))], { type: 'audio/wav' }),
    'u.wav',
  );
  form.set('model', 'whisper-1');
  const stt = await fetch(`${audioUrl}/v1/audio/transcriptions`, {
    method: 'POST',
    dispatcher: agent,
    headers: { authorization: `Bearer ${SPEECH_STAND_IN_KEY}` },
    body: form,
  });
  if (stt.status !== 200) throw new Error(`the STT stand-in answered ${stt.status}`);
  const text = ((await stt.json()) as { text: string }).text;
  const llm = await fetch(`${llmUrl}/v1/chat/completions`, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${STAND_IN_KEY}` },
    body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: text }] }),
  });
  const decoder = new TextDecoder();
  let buf = '';
  for await (const chunk of llm.body!) {
    buf += decoder.decode(chunk as Uint8Array, { stream: true });
    if (buf.includes('Sure.')) break;
  }
  const tts = await fetch(`${audioUrl}/v1/audio/speech`, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SPEECH_STAND_IN_KEY}` },
    body: JSON.stringify({ model: 'tts-1', input: 'Sure.', voice: 'alloy', response_format: 'pcm' }),
  });
  const reader = tts.body!.getReader();
  const first = await reader.read();
  const t = performance.now() - t0;
  // After the timing: the rest of the speech, for the check against Parla's first frame.
  const parts = [Buffer.from(first.value ?? [])];
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(Buffer.from(r.value));
  return { ms: t, sentence: buf.includes('Sure.') ? 'Sure.' : '', pcm: Buffer.concat(parts) };
}

/** Parla's turn must answer what the peer got: the first sentence, and its speech's first samples. */
function sameAnswer(turn: number, peer: { sentence: string; pcm: Buffer }, frame: Frame | undefined, done: Message | null): void {
  const text = done?.text ?? '';
  if (!peer.sentence || !text.startsWith(peer.sentence))
    throw new Error(`turn ${turn}: Parla said ${JSON.stringify(text)}, the peer's model began ${JSON.stringify(peer.sentence)}`);
  if (!frame || frame.seq !== 0 || frame.format !== 'pcm16' || frame.sampleRate !== PEER_RATE)
    throw new Error(`turn ${turn}: Parla's first audio frame is ${JSON.stringify(frame && { ...frame, audio: frame.audio.length })}`);
  if (!frame.audio.length || !frame.audio.equals(peer.pcm.subarray(0, frame.audio.length)))
    throw new Error(`turn ${turn}: Parla's first ${frame.audio.length} audio bytes are not the start of the peer's ${peer.pcm.length}`);
}

async function main(): Promise<void> {
  const [audio, llm] = await Promise.all([startOpenAiAudioStandIn(), startOpenAiStandIn()]);
  audio.sttDelayMs = STT_MS;
  audio.ttsDelayMs = TTS_MS;
  llm.reply = () => ({ content: REPLY, delayMs: LLM_MS });
  const speech: SpeechConfig = {
    stt: { provider: 'openai', apiBase: `${audio.url}/v1`, apiKey: SPEECH_STAND_IN_KEY, language: 'en-US' },
    tts: { provider: 'openai', apiBase: `${audio.url}/v1`, apiKey: SPEECH_STAND_IN_KEY, voiceId: 'alloy' },
    turn: { ...DEFAULT_TURN_SETTINGS, minEndpointingDelay: 0, minInterruptionDuration: MIN_INTERRUPTION },
  };
  const server = await startBenchServer(
    {
      voice: {
        kind: 'llm',
        baseUrl: `${llm.url}/v1`,
        apiKey: STAND_IN_KEY,
        model: 'm',
        instructions: '',
        memory: '',
        sendHistory: false,
        tools: [],
        speech,
      },
      barge: { kind: 'echo', speech },
    },
    [audio.allow, llm.allow],
  );
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const v = await Voice.open(server.host, 'voice');
  const peer: number[] = [];
  const ours: number[] = [];
  const added: number[] = [];
  for (let i = -5; i < TURNS; i++) {
    const peerTurn = await direct(audio.url, llm.url, agent);
    const d = peerTurn.ms;
    v.send({ type: 'interrupt' });
    const first = v.until((m) => m === 'audio');
    const done = v.until((m) => m !== 'audio' && m.type === 'assistant_done' && !m.interrupted);
    v.frames = [];
    v.done = null;
    const t0 = v.speak(i * 10_000 + 100_000);
    const p = (await first) - t0;
    await done;
    sameAnswer(i, peerTurn, v.frames[0], v.done);
    if (i < 0) continue;
    peer.push(d);
    ours.push(p);
    added.push(p - d);
  }
  v.ws.close();

  // Barge-in: the avatar plays a long answer; speech over it until the turn is cut.
  const b = await Voice.open(server.host, 'barge');
  const barge: number[] = [];
  const long = 'This is a long answer that keeps the avatar talking for several seconds.';
  for (let i = 0; i < Math.min(TURNS, 30); i++) {
    const spoken = b.until((m) => m === 'audio');
    b.send({ type: 'user_text', text: long });
    await spoken;
    const cut = b.until((m) => m !== 'audio' && m.type === 'assistant_done' && m.interrupted === true);
    const t0 = performance.now();
    b.send({ type: 'user_speech', event: 'start', at: i * 10_000 + 500_000 });
    b.ws.send(UTTERANCE, { binary: true });
    barge.push((await cut) - t0 - MIN_INTERRUPTION * 1000);
    b.send({ type: 'user_speech', event: 'end', at: i * 10_000 + 500_100 });
    await new Promise((r) => setTimeout(r, 2100));
  }
  b.ws.close();

  const known = STT_MS + LLM_MS + TTS_MS;
  const met = pct(added, 50) <= GOAL.p50 && pct(added, 95) <= GOAL.p95;
  const bargeMet = pct(barge, 95) <= GOAL.barge95;
  console.log(
    `voice-server: ${TURNS} turns, interleaved with the peer; stand-in delays STT ${STT_MS} + LLM ${LLM_MS} + TTS ${TTS_MS} = ${known} ms`,
  );
  console.log(`  peer (stand-ins called directly, to the first sentence's audio): p50 ${ms(pct(peer, 50))}  p95 ${ms(pct(peer, 95))}`);
  console.log(`  Parla (user_speech end → first binary audio frame):              p50 ${ms(pct(ours, 50))}  p95 ${ms(pct(ours, 95))}`);
  console.log(
    `  Parla's overhead (paired difference):                             p50 ${ms(pct(added, 50))}  p95 ${ms(pct(added, 95))}   goal ≤ ${GOAL.p50}/${GOAL.p95}: ${verdict(met)}`,
  );
  console.log(`  ratio (Parla / peer, p50): ${(pct(ours, 50) / pct(peer, 50)).toFixed(2)}x`);
  console.log(
    `  barge-in beyond min_interruption_duration (${MIN_INTERRUPTION * 1000} ms), ${barge.length} times: p50 ${ms(pct(barge, 50))}  p95 ${ms(pct(barge, 95))}   goal ≤ ${GOAL.barge95} p95: ${verdict(bargeMet)}`,
  );
  const f = (x: number) => x.toFixed(1);
  writeSection(
    'voice-server',
    'Voice, server side — speech end to first audio, and barge-in',
    `From \`user_speech end\` to the first binary audio frame on the socket, with the product's own speech
(OpenAI audio API stand-in: STT ${STT_MS} ms, TTS ${TTS_MS} ms) and an OpenAI-compatible model stand-in (${LLM_MS} ms to the
first chunk); endpointing delay 0. Peer: the same stand-ins called directly in sequence, interleaved. ${TURNS} turns.
Checked every turn: Parla's answer begins with the peer's first sentence, and its first audio frame (pcm16, ${PEER_RATE / 1000} kHz) is the
start of the peer's speech of that sentence, byte for byte.

${table(
  ['', 'p50 (ms)', 'p95 (ms)'],
  [
    ['peer: stand-ins called directly', f(pct(peer, 50)), f(pct(peer, 95))],
    ['Parla: speech end → first audio frame', f(pct(ours, 50)), f(pct(ours, 95))],
    ["Parla's overhead (paired)", f(pct(added, 50)), f(pct(added, 95))],
    [`barge-in beyond ${MIN_INTERRUPTION * 1000} ms`, f(pct(barge, 50)), f(pct(barge, 95))],
  ],
)}

Overhead goal ≤ ${GOAL.p50} ms p50, ≤ ${GOAL.p95} ms p95: ${verdict(met)}. Barge-in goal ≤ ${GOAL.barge95} ms p95: ${verdict(bargeMet)}.`,
  );
  await agent.close();
  await server.close();
  await Promise.all([audio.close(), llm.close()]);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
