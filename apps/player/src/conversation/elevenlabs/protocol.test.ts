import { describe, expect, it, vi } from 'vitest';
import {
  bytesToBase64,
  decodeAudio,
  ElevenLabsSocket,
  floatToPcm16,
  parseAudioFormat,
  ulawToFloat,
  type ElevenLabsEvents,
  type SocketLike,
} from './protocol';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  closed: { code?: number; reason?: string } | null = null;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(code?: number, reason?: string) {
    this.closed = { code, reason };
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  drop(code: number, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason, wasClean: code === 1000 });
  }
}

const pcm = (values: number[]) => bytesToBase64(floatToPcm16(Float32Array.from(values)));

async function started(events: ElevenLabsEvents = {}) {
  let ws: FakeSocket | null = null;
  const socket = new ElevenLabsSocket(
    'wss://agent.example/v1/convai/conversation?agent_id=a&conversation_signature=s',
    events,
    (u) => (ws = new FakeSocket(u)),
  );
  const ready = socket.start({ dynamic_variables: { user_name: 'Guest' } });
  ws!.open();
  ws!.receive({
    type: 'conversation_initiation_metadata',
    conversation_initiation_metadata_event: {
      conversation_id: 'conv_1',
      agent_output_audio_format: 'pcm_16000',
      user_input_audio_format: 'pcm_16000',
    },
  });
  await ready;
  return { socket, ws: ws! };
}

describe('ElevenLabsSocket (Conversational AI over WebSocket)', () => {
  it('opens the signed URL, sends the initiation data and starts on the metadata with its audio formats', async () => {
    const onStarted = vi.fn();
    const { ws, socket } = await started({ onStarted });
    expect(ws.url).toContain('conversation_signature=s');
    expect(ws.sent[0]).toEqual({ type: 'conversation_initiation_client_data', dynamic_variables: { user_name: 'Guest' } });
    expect(onStarted).toHaveBeenCalledWith({
      conversationId: 'conv_1',
      input: { encoding: 'pcm', sampleRate: 16000 },
      output: { encoding: 'pcm', sampleRate: 16000 },
    });
    expect(socket.isOpen).toBe(true);
  });

  it('decodes audio events with their alignment, the texts and the transcripts', async () => {
    const events = { onAudio: vi.fn(), onAgentResponse: vi.fn(), onUserTranscript: vi.fn(), onAgentCorrection: vi.fn() };
    const { ws } = await started(events);
    ws.receive({ type: 'agent_response', agent_response_event: { agent_response: 'Hi there' } });
    ws.receive({
      type: 'audio',
      audio_event: {
        audio_base_64: pcm([0.5, -0.5]),
        event_id: 1,
        alignment: { chars: ['H', 'i'], char_start_times_ms: [0, 60], char_durations_ms: [60, 60] },
      },
    });
    ws.receive({ type: 'audio', audio_event: { audio_base_64: pcm([0.25]), event_id: 1 } });
    ws.receive({ type: 'user_transcript', user_transcription_event: { user_transcript: 'what time is it' } });
    ws.receive({
      type: 'agent_response_correction',
      agent_response_correction_event: { original_agent_response: 'Hi there', corrected_agent_response: 'Hi' },
    });
    expect(events.onAgentResponse).toHaveBeenCalledWith('Hi there');
    const first = events.onAudio.mock.calls[0]![0];
    expect(first.eventId).toBe(1);
    expect(first.sampleRate).toBe(16000);
    expect(Array.from(first.samples as Float32Array).map((v) => Math.round(v * 100) / 100)).toEqual([0.5, -0.5]);
    expect(first.alignment).toEqual({ chars: ['H', 'i'], charStartTimesMs: [0, 60], charDurationsMs: [60, 60] });
    expect(events.onAudio.mock.calls[1]![0].alignment).toBeUndefined();
    expect(events.onUserTranscript).toHaveBeenCalledWith('what time is it');
    expect(events.onAgentCorrection).toHaveBeenCalledWith('Hi there', 'Hi');
  });

  it('answers pings with a pong of the same event id, and client tool calls with an error result', async () => {
    const { ws } = await started();
    ws.receive({ type: 'ping', ping_event: { event_id: 7, ping_ms: 42 } });
    expect(ws.sent.at(-1)).toEqual({ type: 'pong', event_id: 7 });
    ws.receive({ type: 'client_tool_call', client_tool_call: { tool_name: 'open_door', tool_call_id: 'call_1', parameters: {} } });
    expect(ws.sent.at(-1)).toMatchObject({ type: 'client_tool_result', tool_call_id: 'call_1', is_error: true });
  });

  it('drops audio of replies older than an interruption', async () => {
    const events = { onAudio: vi.fn(), onInterruption: vi.fn() };
    const { ws } = await started(events);
    ws.receive({ type: 'interruption', interruption_event: { event_id: 3 } });
    expect(events.onInterruption).toHaveBeenCalledWith(3);
    ws.receive({ type: 'audio', audio_event: { audio_base_64: pcm([0.1]), event_id: 2 } });
    ws.receive({ type: 'audio', audio_event: { audio_base_64: pcm([0.1]), event_id: 3 } });
    expect(events.onAudio.mock.calls.map((c) => c[0].eventId)).toEqual([3]);
  });

  it('sends microphone audio as user_audio_chunk and typed text as user_message', async () => {
    const { ws, socket } = await started();
    socket.sendAudio(new Uint8Array([1, 0, 2, 0]));
    socket.sendText('hello');
    socket.sendActivity();
    expect(ws.sent.slice(1)).toEqual([
      { user_audio_chunk: 'AQACAA==' },
      { type: 'user_message', text: 'hello' },
      { type: 'user_activity' },
    ]);
  });

  it('ends cleanly: close() sends a normal close; a close by the agent is reported once', async () => {
    const onClose = vi.fn();
    const a = await started({ onClose });
    a.socket.close();
    expect(a.ws.closed).toEqual({ code: 1000, reason: 'The user ended the conversation' });
    a.ws.drop(1000);
    expect(onClose).not.toHaveBeenCalled();
    const b = await started({ onClose });
    b.ws.drop(1008, 'Agent hung up');
    expect(onClose).toHaveBeenCalledWith({ code: 1008, reason: 'Agent hung up', clean: false });
  });

  it('rejects when the agent closes before the conversation starts', async () => {
    let ws: FakeSocket | null = null;
    const socket = new ElevenLabsSocket('wss://x', {}, (u) => (ws = new FakeSocket(u)));
    const p = socket.start();
    ws!.open();
    ws!.drop(3000, 'Invalid conversation signature');
    await expect(p).rejects.toThrow('Invalid conversation signature');
  });
});

describe('audio formats', () => {
  it('reads pcm_* and ulaw_* and decodes both', () => {
    expect(parseAudioFormat('pcm_22050')).toEqual({ encoding: 'pcm', sampleRate: 22050 });
    expect(parseAudioFormat('ulaw_8000')).toEqual({ encoding: 'ulaw', sampleRate: 8000 });
    expect(parseAudioFormat('mp3_44100_128')).toEqual({ encoding: 'pcm', sampleRate: 16000 });
    expect(ulawToFloat(0xff)).toBe(0);
    expect(ulawToFloat(0x00)).toBeLessThan(-0.9);
    expect(ulawToFloat(0x80)).toBeGreaterThan(0.9);
    expect(decodeAudio(new Uint8Array([0xff, 0x7f]), { encoding: 'pcm', sampleRate: 16000 })[0]).toBeCloseTo(1, 3);
  });
});
