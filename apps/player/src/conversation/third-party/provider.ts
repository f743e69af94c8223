// Third-party agents (ElevenLabs Conversational AI, Agora TEN): the conversation runtime only
// issues what the player needs to connect (the `connect` message); the player then talks to the
// provider itself. Each provider is a ProviderSession in its own lazily loaded chunk, so the
// player's first load carries none of them.
import type { ServerMessage } from '@parla/shared/schemas/conversation';
import type { MouthSource } from '../../lipsync/face-driver';

export type ConnectInfo = Extract<ServerMessage, { type: 'connect' }>;

export interface ProviderEvents {
  /** A whole reply of the agent (its text as the chat shows it). */
  onAgentText(text: string): void;
  /** The agent was cut short: the reply as it was really said. */
  onAgentCorrection?(original: string, corrected: string): void;
  /** What the agent heard the user say. */
  onUserText(text: string): void;
  /** What moves the mouth now (null: the face rests). */
  onMouth(source: MouthSource | null): void;
  /** The agent started (true) or stopped (false) speaking. */
  onSpeaking?(on: boolean): void;
  /** Something went wrong that the end user should read. */
  onError(message: string): void;
  /** The provider ended the conversation. */
  onEnd(message: string): void;
}

export interface ProviderOptions {
  language: string;
  speaker: boolean;
}

export interface ProviderSession {
  /** Microphone on or off (the provider hears the user only while it is on). */
  setMic(on: boolean): void;
  setSpeaker(on: boolean): void;
  /** Typed text; false when the provider has no way to take it. */
  sendText(text: string): boolean;
  /** Stops the agent's audio now. */
  interrupt(): void;
  close(): void;
}

export type OpenProvider = (connect: ConnectInfo, events: ProviderEvents, options: ProviderOptions) => Promise<ProviderSession>;

/** What the end user reads when a provider cannot be reached from this player. */
export function providerName(connect: ConnectInfo): string {
  return connect.provider === 'agora_ten' ? 'Agora TEN' : 'ElevenLabs';
}
