import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeAudioFrame, MIC_MAX_FRAME_BYTES } from '@parla/shared/audio-frames';
import { WsConversationClient } from './ws-client';
import { createConversationClient } from './create-client';
import { EchoClient } from './echo-client';
import type { ProviderEvents, ProviderSession } from './third-party/provider';

const provider = vi.hoisted(() => ({ open: vi.fn() }));
vi.mock('./third-party/open', () => ({ openProvider: provider.open }));

class FakeSocket {
  static last: FakeSocket | null = null;
  static OPEN = 1;
  readyState = 0;
  sent: (string | Uint8Array)[] = [];
  binaryType = 'blob';
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string | ArrayBuffer }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(data: string | Uint8Array) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  receiveBinary(bytes: Uint8Array) {
    this.onmessage?.({ data: bytes.slice().buffer });
  }
}

beforeEach(() => {
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const handlers = () => ({
  onReady: vi.fn(),
  onDelta: vi.fn(),
  onDone: vi.fn(),
  onError: vi.fn(),
  onNotice: vi.fn(),
  onAudioFrame: vi.fn(),
  onTranscript: vi.fn(),
});

describe('WsConversationClient', () => {
  it('opens the conversation with the token, says hello, queues text until ready and maps replies', async () => {
    const c = new WsConversationClient({
      avatarId: 'a1',
      token: 'tok',
      oauthGrant: null,
      backPath: '/avatar/a1?token=tok',
      origin: 'https://parla.example',
    });
    const h = handlers();
    const connected = c.connect(h);
    const ws = FakeSocket.last!;
    expect(ws.url).toBe('wss://parla.example/ws/conversation?avatarId=a1&token=tok');
    ws.open();
    await connected;
    expect(JSON.parse(ws.sent[0] as string)).toMatchObject({ type: 'hello', deviceId: expect.any(String), audio: true });
    c.sendText('hello');
    expect(ws.sent).toHaveLength(1);
    ws.receive({ type: 'ready', sessionId: 's1', avatarId: 'a1', engine: 'Echo' });
    expect(h.onReady).toHaveBeenCalledWith({ sessionId: 's1', engine: 'Echo', listen: 'browser' });
    expect(JSON.parse(ws.sent[1] as string)).toEqual({ type: 'user_text', text: 'hello' });
    ws.receive({ type: 'assistant_delta', turnId: 't1', text: 'hel' });
    ws.receive({ type: 'assistant_done', turnId: 't1', text: 'hello' });
    expect(h.onDelta).toHaveBeenCalledWith('t1', 'hel');
    expect(h.onDone).toHaveBeenCalledWith('t1', 'hello', {});
    ws.receive({ type: 'notice', reason: 'daily_limit_echo', message: 'limit' });
    expect(h.onNotice).toHaveBeenCalledWith('limit');
    ws.receive({ type: 'error', code: 17, message: 'too many' });
    expect(h.onError).toHaveBeenCalledWith(17, 'too many');
    c.interrupt();
    expect(JSON.parse(ws.sent.at(-1) as string)).toEqual({ type: 'interrupt' });
  });

  it('hands binary reply chunks on with their header, skips malformed ones, and marks interrupted turns', async () => {
    const c = new WsConversationClient({ avatarId: 'a1', token: null, oauthGrant: null, backPath: '/', origin: 'http://x' });
    const h = handlers();
    const p = c.connect(h);
    FakeSocket.last!.open();
    await p;
    const ws = FakeSocket.last!;
    expect(ws.binaryType).toBe('arraybuffer');
    ws.receive({ type: 'ready', sessionId: 's', avatarId: 'a1', engine: 'Custom', audio: true });
    expect(h.onReady).toHaveBeenCalledWith({ sessionId: 's', engine: 'Custom', audio: true, listen: 'browser' });
    const header = { turnId: 't', seq: 0, format: 'pcm16' as const, sampleRate: 16000, words: [{ word: 'Hi', start: 0.1, end: 0.3 }] };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    ws.receiveBinary(encodeAudioFrame(header, new Uint8Array([1, 0, 2, 0])));
    ws.receiveBinary(new Uint8Array([0, 0, 0, 99, 1]));
    ws.receiveBinary(encodeAudioFrame({ ...header, seq: 1 }, new Uint8Array([3, 0])));
    expect(h.onAudioFrame).toHaveBeenCalledTimes(2);
    expect(h.onAudioFrame.mock.calls.map((c) => [c[0].seq, c[1]])).toEqual([
      [0, new Uint8Array([1, 0, 2, 0])],
      [1, new Uint8Array([3, 0])],
    ]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('skipped'));
    // Audio comes only as binary frames: a JSON `audio` message is not played.
    ws.receive({ type: 'audio', turnId: 't', seq: 1, format: 'pcm16', sampleRate: 16000, audio: btoa('\x01\x00') });
    expect(h.onAudioFrame).toHaveBeenCalledTimes(2);
    ws.receive({ type: 'assistant_done', turnId: 't', text: 'Hi', interrupted: true });
    expect(h.onDone).toHaveBeenCalledWith('t', 'Hi', { interrupted: true });
    ws.receive({ type: 'transcript', text: 'hello there', final: true });
    expect(h.onTranscript).toHaveBeenCalledWith('hello there', true);
  });

  it('streams microphone frames only after a ready that says the server listens, and never frames above the limit', async () => {
    const c = new WsConversationClient({ avatarId: 'a1', token: null, oauthGrant: null, backPath: '/', origin: 'http://x' });
    const h = handlers();
    const p = c.connect(h);
    FakeSocket.last!.open();
    await p;
    const ws = FakeSocket.last!;
    const binary = () => ws.sent.filter((m) => typeof m !== 'string');
    c.sendAudio(new Uint8Array(2048));
    expect(binary()).toHaveLength(0);
    const vad = {
      activation_threshold: 0.5,
      min_speech_duration: 0.05,
      min_silence_duration: 0.55,
      prefix_padding_duration: 0.5,
      max_buffered_speech: 60,
      allow_interruptions: true,
      min_interruption_duration: 0.5,
    };
    ws.receive({ type: 'ready', sessionId: 's', avatarId: 'a1', engine: 'Echo', audio: true, listen: 'server', vad });
    expect(h.onReady).toHaveBeenCalledWith({ sessionId: 's', engine: 'Echo', audio: true, listen: 'server', vad });
    c.sendSpeech('start');
    c.sendAudio(new Uint8Array(2048));
    c.sendAudio(new Uint8Array(MIC_MAX_FRAME_BYTES + 2));
    c.sendAudio(new Uint8Array(3));
    c.sendSpeech('end');
    expect(binary()).toHaveLength(1);
    expect(
      ws.sent
        .filter((m) => typeof m === 'string')
        .slice(-2)
        .map((m) => JSON.parse(m as string)),
    ).toEqual([
      { type: 'user_speech', event: 'start' },
      { type: 'user_speech', event: 'end' },
    ]);
  });

  it('stamps voice activity with when it was captured, counted from the ready', async () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(5000);
    const c = new WsConversationClient({ avatarId: 'a1', token: null, oauthGrant: null, backPath: '/', origin: 'http://x' });
    const p = c.connect(handlers());
    FakeSocket.last!.open();
    await p;
    const ws = FakeSocket.last!;
    ws.receive({ type: 'ready', sessionId: 's', avatarId: 'a1', engine: 'Echo', audio: true, listen: 'server' });
    // Judged late, in one burst: the stamps keep the 4 s between the edges.
    now.mockReturnValue(12_000);
    c.sendSpeech('start', 6000.4);
    c.sendSpeech('end', 10_000);
    // Audio captured before the ready (never expected) is not before the conversation.
    c.sendSpeech('start', 4000);
    expect(ws.sent.slice(-3).map((m) => JSON.parse(m as string))).toEqual([
      { type: 'user_speech', event: 'start', at: 1000 },
      { type: 'user_speech', event: 'end', at: 5000 },
      { type: 'user_speech', event: 'start', at: 0 },
    ]);
    now.mockRestore();
  });

  it("sends the end user to the partner's sign-in when the avatar needs it", async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, origin: 'http://x' });
    const c = new WsConversationClient({ avatarId: 'a1', token: 't', oauthGrant: null, backPath: '/avatar/a1?token=t' });
    const p = c.connect(handlers());
    FakeSocket.last!.open();
    await p;
    FakeSocket.last!.receive({ type: 'error', code: 6, message: 'sign in', signInUrl: '/api/oauth/start/a1' });
    expect(assign).toHaveBeenCalledWith('/api/oauth/start/a1?back=%2Favatar%2Fa1%3Ftoken%3Dt');
  });

  it("reports how the server ended the conversation (bye reason, close code, last error), but not the user's own close", async () => {
    const c = new WsConversationClient({ avatarId: 'a1', token: 't', oauthGrant: null, backPath: '/', origin: 'http://x' });
    const h = { ...handlers(), onClose: vi.fn() };
    const p = c.connect(h);
    const ws = FakeSocket.last!;
    ws.open();
    await p;
    ws.receive({ type: 'ready', sessionId: 's1', avatarId: 'a1', engine: 'Echo' });
    ws.receive({ type: 'bye', reason: 'idle' });
    ws.onclose?.({ code: 4110 });
    expect(h.onClose).toHaveBeenCalledWith({ code: 4110, bye: 'idle', started: true });

    const refused = new WsConversationClient({ avatarId: 'a1', token: 'bad', oauthGrant: null, backPath: '/', origin: 'http://x' });
    const h2 = { ...handlers(), onClose: vi.fn() };
    void refused.connect(h2);
    FakeSocket.last!.open();
    FakeSocket.last!.receive({ type: 'error', code: 13, message: 'Invalid token' });
    FakeSocket.last!.onclose?.({ code: 4013 });
    expect(h2.onClose).toHaveBeenCalledWith({ code: 4013, error: 'Invalid token', started: false });

    const mine = new WsConversationClient({ avatarId: 'a1', token: 't', oauthGrant: null, backPath: '/', origin: 'http://x' });
    const h3 = { ...handlers(), onClose: vi.fn() };
    void mine.connect(h3);
    const ws3 = FakeSocket.last!;
    ws3.open();
    mine.close();
    ws3.onclose?.({ code: 1000 });
    expect(h3.onClose).not.toHaveBeenCalled();
  });
});

describe('third-party agents', () => {
  const connectMsg = {
    type: 'connect',
    provider: 'elevenlabs',
    agentId: 'agent_1',
    signedUrl: 'wss://agent/x?conversation_signature=s',
    connectionType: 'websocket',
  };

  async function live() {
    const c = new WsConversationClient({
      avatarId: 'a1',
      token: null,
      oauthGrant: null,
      backPath: '/',
      origin: 'http://x',
      language: 'de-DE',
    });
    const h = { ...handlers(), onProvider: vi.fn(), onUserText: vi.fn(), onMouth: vi.fn(), onCorrection: vi.fn(), onSpeaking: vi.fn() };
    const p = c.connect(h);
    FakeSocket.last!.open();
    await p;
    const ws = FakeSocket.last!;
    ws.receive({ type: 'ready', sessionId: 's', avatarId: 'a1', engine: 'ElevenLabs Conversational AI' });
    return { c, h, ws };
  }

  it('connects to the provider the server names and routes its messages, the mic, the speaker and typed text', async () => {
    const session: ProviderSession = {
      setMic: vi.fn(),
      setSpeaker: vi.fn(),
      sendText: vi.fn(() => true),
      interrupt: vi.fn(),
      close: vi.fn(),
    };
    let events: ProviderEvents | null = null;
    provider.open.mockImplementation(async (_connect: unknown, e: ProviderEvents) => ((events = e), session));
    const { c, h, ws } = await live();
    c.setMic(true);
    c.setSpeaker(false);
    ws.receive(connectMsg);
    await vi.waitFor(() => expect(h.onProvider).toHaveBeenCalledWith({ provider: 'elevenlabs' }));
    expect(provider.open.mock.calls[0]![0]).toEqual(connectMsg);
    expect(provider.open.mock.calls[0]![2]).toEqual({ language: 'de-DE', speaker: false });
    expect(session.setMic).toHaveBeenCalledWith(true);
    events!.onAgentText('Hello!');
    expect(h.onDone).toHaveBeenCalledWith('agent-1', 'Hello!');
    events!.onAgentCorrection!('Hello!', 'Hel');
    expect(h.onCorrection).toHaveBeenCalledWith('agent-1', 'Hel');
    events!.onSpeaking!(true);
    expect(h.onSpeaking).toHaveBeenCalledWith(true);
    events!.onUserText('hi there');
    expect(h.onUserText).toHaveBeenCalledWith('hi there');
    // The user talking to the agent keeps the runtime's conversation from idling out.
    expect(JSON.parse(ws.sent.at(-1) as string)).toEqual({ type: 'user_speech', event: 'end' });
    const mouth = { viseme: () => 'aa' as const };
    events!.onMouth(mouth);
    expect(h.onMouth).toHaveBeenCalledWith(mouth);
    c.sendText('typed');
    expect(session.sendText).toHaveBeenCalledWith('typed');
    expect(ws.sent.map((m) => JSON.parse(m as string).type)).not.toContain('user_text');
    c.interrupt();
    expect(session.interrupt).toHaveBeenCalled();
    c.close();
    expect(session.close).toHaveBeenCalled();
  });

  it('says so when the provider ends the conversation, and ends this one too', async () => {
    let events: ProviderEvents | null = null;
    provider.open.mockImplementation(
      async (_c: unknown, e: ProviderEvents) => (
        (events = e),
        { setMic: vi.fn(), setSpeaker: vi.fn(), sendText: () => false, interrupt: vi.fn(), close: vi.fn() }
      ),
    );
    const { c, h, ws } = await live();
    ws.receive(connectMsg);
    await vi.waitFor(() => expect(h.onProvider).toHaveBeenCalled());
    c.sendText('anyone there?');
    expect(h.onNotice).toHaveBeenCalledWith('This avatar listens only: please use the microphone.');
    events!.onEnd('The conversation has ended.');
    expect(h.onNotice).toHaveBeenLastCalledWith('The conversation has ended.');
    expect(JSON.parse(ws.sent.at(-1) as string)).toEqual({ type: 'bye' });
  });

  it('shows a clear message when the provider cannot be reached or its SDK cannot load', async () => {
    provider.open.mockRejectedValue(new Error('Failed to fetch dynamically imported module'));
    const { h, ws } = await live();
    ws.receive({ type: 'connect', provider: 'agora_ten', appId: 'app', channel: 'parla-1', uid: 7, token: 't' });
    await vi.waitFor(() =>
      expect(h.onError).toHaveBeenCalledWith(
        14,
        "This avatar's Agora TEN agent is not available right now (Failed to fetch dynamically imported module).",
      ),
    );
    expect(h.onProvider).not.toHaveBeenCalled();
  });
});

describe('createConversationClient', () => {
  it("echoes in the page for the editor's preview and talks to the runtime for saved avatars", () => {
    const preview = createConversationClient({ id: 'preview', engine: 'Echo' } as never, { search: '', pathname: '/avatar/preview' });
    expect(preview).toBeInstanceOf(EchoClient);
    const saved = createConversationClient({ id: 'a9', engine: 'Echo' } as never, {
      search: '?token=t&oauthGrant=g&connect=true',
      pathname: '/avatar/a9',
    });
    expect(saved).toBeInstanceOf(WsConversationClient);
  });
});
