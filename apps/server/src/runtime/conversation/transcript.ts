// The transcript of one conversation: each message (who, text, time, interrupted or not) is
// kept in memory for the summary and handed in order to the process's transcript writer, which
// writes every conversation's messages in batches (runtime/transcript-writer.ts). A write that
// fails (the avatar was deleted meanwhile: its messages go with it) is logged there, never thrown.
import type { TranscriptStore } from './ports';

export type Speaker = 'user' | 'assistant' | 'wake_up';

export interface TranscriptLine {
  role: Speaker;
  text: string;
  at: Date;
  interrupted: boolean;
  knowledgeHits: number | null;
}

/** Characters of one message kept (a reply is far shorter; a pasted novel is cut). */
const MAX_MESSAGE_CHARS = 20_000;

export class Transcript {
  readonly lines: TranscriptLine[] = [];

  constructor(
    private readonly conversationId: string,
    private readonly avatar: { id: string; ownerId: string },
    private readonly d: { transcripts: TranscriptStore; now(): Date },
  ) {}

  add(role: Speaker, text: string, interrupted: boolean, knowledgeHits: number | null = null): void {
    const line = { role, text: text.slice(0, MAX_MESSAGE_CHARS), at: this.d.now(), interrupted, knowledgeHits };
    const seq = this.lines.push(line);
    const row = { conversationId: this.conversationId, ownerId: this.avatar.ownerId, avatarId: this.avatar.id, seq, ...line };
    this.d.transcripts.add(row);
  }

  /** Writes the messages buffered (this conversation's and others'); resolves once every
   *  message so far is written. */
  flushed(): Promise<void> {
    return this.d.transcripts.flush();
  }

  /** The conversation as plain text (the summary's input): wake-up turns left out. */
  text(): string {
    return this.lines
      .filter((l) => l.role !== 'wake_up')
      .map((l) => `${l.role === 'user' ? 'User' : 'Avatar'}: ${l.text}`)
      .join('\n');
  }
}
