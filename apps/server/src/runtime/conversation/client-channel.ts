// The client side of a conversation: the socket protocol of @parla/shared/schemas/conversation.
// Frames out (the sink every other part writes to), frames in (rate limits, validation, then
// one call on the handler per message) and the close. Nothing else touches the socket.
import { performance } from 'node:perf_hooks';
import type WebSocket from 'ws';
import {
  CLOSE_CODES,
  CONVERSATION_MAX_FRAMES_PER_SECOND,
  CONVERSATION_TEXT_BURST,
  CONVERSATION_TEXTS_PER_SECOND,
  parseClientMessage,
  type ByeReason,
  type ServerMessage,
} from '@parla/shared/schemas/conversation';
import { ErrorCode } from '@parla/shared/errors';
import { MIC_MAX_FRAME_BYTES, micFrameProblem } from '@parla/shared/audio-frames';
import type { ClientSink } from './ports';

export const RATE_LIMITED_MESSAGE = 'Too many messages. Please slow down.';
export const AUDIO_NOT_EXPECTED_MESSAGE =
  "This avatar does not listen to microphone audio here: its ready message did not say listen 'server'.";
const MIC_SAMPLE_RATE_HZ = 16000;

/** What the conversation does with each client message. */
export interface ClientHandler {
  /** The user did something (text, speech): the idle timer restarts. */
  userActive(): void;
  userText(text: string): void;
  speech(event: 'start' | 'end', atMs: number | undefined): void;
  audio(pcm: Buffer, sampleRate: number): void;
  interrupt(): void;
  end(reason: ByeReason | 'socket', closeCode: number, closeReason?: string): Promise<void>;
}

export class ClientChannel implements ClientSink {
  private frameTokens = CONVERSATION_MAX_FRAMES_PER_SECOND * 2;
  private frameRefillAt = performance.now();
  /** User messages the client may still send at once: a token bucket (decision 614). A window
   *  of 30 a minute closed clients pacing one turn a second (issue 34 item 7). */
  private textTokens = CONVERSATION_TEXT_BURST;
  private textRefillAt: number | null = null;
  private closed = false;
  private handler: ClientHandler | null = null;
  /** The ready said listen 'server': microphone frames are taken from now on. */
  private listening = false;

  constructor(
    private readonly socket: WebSocket,
    /** The context's clock (shared by every conversation). */
    private readonly now: () => Date,
  ) {}

  send(msg: ServerMessage): void {
    if (this.socket.readyState === 1) this.socket.send(JSON.stringify(msg));
  }

  sendBinary(frame: Uint8Array): void {
    if (this.socket.readyState === 1) this.socket.send(frame, { binary: true });
  }

  /** The ready told the client listen 'server' (decision 611). */
  acceptAudio(): void {
    this.listening = true;
  }

  /** Listens to the socket; false when it closed while the conversation was opening. */
  attach(handler: ClientHandler): boolean {
    this.handler = handler;
    this.socket.on('message', (data, isBinary) => {
      if (isBinary) return this.onBinary(toBuffer(data));
      this.onFrame(String(data));
    });
    this.socket.on('close', () => void handler.end('socket', CLOSE_CODES.normal));
    return this.socket.readyState === 1;
  }

  /** Takes one frame from the rate limit; false when the client is over it (then it ends). */
  private admit(h: ClientHandler): boolean {
    const t = performance.now();
    this.frameTokens = Math.min(
      CONVERSATION_MAX_FRAMES_PER_SECOND * 2,
      this.frameTokens + ((t - this.frameRefillAt) / 1000) * CONVERSATION_MAX_FRAMES_PER_SECOND,
    );
    this.frameRefillAt = t;
    if (this.frameTokens < 1) {
      this.rateLimited(h);
      return false;
    }
    this.frameTokens -= 1;
    return true;
  }

  /** One binary frame: microphone audio (decision 611), counted in the frame rate limit. */
  onBinary(frame: Buffer): void {
    const h = this.handler;
    if (this.closed || !h || !this.admit(h)) return;
    if (frame.length > MIC_MAX_FRAME_BYTES)
      return void h.end('client', CLOSE_CODES.tooLarge, `Audio frames may be at most ${MIC_MAX_FRAME_BYTES} bytes`);
    if (!this.listening) return this.send({ type: 'error', code: ErrorCode.BinarySocketError, message: AUDIO_NOT_EXPECTED_MESSAGE });
    const problem = micFrameProblem(frame);
    if (problem) return this.send({ type: 'error', code: ErrorCode.BinarySocketError, message: problem });
    h.audio(frame, MIC_SAMPLE_RATE_HZ);
  }

  /** One client frame: rate limits, parsing, dispatch (in order). */
  onFrame(raw: string): void {
    const h = this.handler;
    if (this.closed || !h || !this.admit(h)) return;
    const parsed = parseClientMessage(raw);
    if (!parsed.ok) return this.send({ type: 'error', code: ErrorCode.InvalidOrMissingParams, message: parsed.error });
    const msg = parsed.message;
    switch (msg.type) {
      case 'hello':
        return;
      case 'ping':
        return this.send({ type: 'pong' });
      case 'user_text':
      case 'user_transcript': {
        if (msg.type === 'user_transcript' && !msg.final) return;
        if (!this.takeText()) return this.rateLimited(h);
        h.userActive();
        const text = msg.text.trim();
        if (text) h.userText(text);
        return;
      }
      case 'user_speech':
        h.userActive();
        return h.speech(msg.event, msg.at);
      case 'interrupt':
        return h.interrupt();
      case 'bye':
        return void h.end('client', CLOSE_CODES.normal);
    }
  }

  /** One user message from the bucket, refilled by the time since the last one on the context's
   *  clock. Messages held up by a pause of the server arrive together, and the pause has refilled
   *  the bucket by as many as the client sent meanwhile (up to the burst). */
  private takeText(): boolean {
    const now = this.now().getTime();
    const elapsed = this.textRefillAt === null ? 0 : Math.max(0, now - this.textRefillAt);
    this.textTokens = Math.min(CONVERSATION_TEXT_BURST, this.textTokens + (elapsed / 1000) * CONVERSATION_TEXTS_PER_SECOND);
    this.textRefillAt = now;
    if (this.textTokens < 1) return false;
    this.textTokens -= 1;
    return true;
  }

  private rateLimited(h: ClientHandler): void {
    this.send({ type: 'error', code: ErrorCode.RequestFail, message: RATE_LIMITED_MESSAGE });
    void h.end('client', CLOSE_CODES.rateLimited);
  }

  /** The conversation ended: frames in are ignored from now on. */
  stop(): void {
    this.closed = true;
  }

  close(code: number, reason = ''): void {
    if (this.socket.readyState === 1 || this.socket.readyState === 0) this.socket.close(code, reason);
  }
}

function toBuffer(data: WebSocket.RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
