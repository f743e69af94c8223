// Text from an Agora TEN agent: its transcripts (the user's and the agent's own words) come as
// RTC stream messages, each "message_id|part_index|total_parts|content" where the parts' contents
// joined are base64 of a JSON object { text, is_final, stream_id, role?, data_type? }.

export interface TenText {
  text: string;
  final: boolean;
  /** Who said it: the agent, or the user (by role, else by the stream it belongs to). */
  role: 'agent' | 'user';
}

interface Pending {
  parts: string[];
  received: number;
  at: number;
}

const STALE_MS = 5000;

export class TenMessageAssembler {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly localUid: number) {}

  /** One stream message; the message it completes, if any. */
  push(payload: Uint8Array, now = Date.now()): TenText | null {
    for (const [id, p] of this.pending) if (now - p.at > STALE_MS) this.pending.delete(id);
    const raw = new TextDecoder().decode(payload);
    const [id, indexText, totalText, ...rest] = raw.split('|');
    const index = Number(indexText),
      total = Number(totalText);
    if (!id || !Number.isInteger(index) || !Number.isInteger(total) || total < 1 || index < 1 || index > total) return null;
    const p = this.pending.get(id) ?? { parts: new Array<string>(total).fill(''), received: 0, at: now };
    if (!p.parts[index - 1]) p.received++;
    p.parts[index - 1] = rest.join('|');
    this.pending.set(id, p);
    if (p.received < total) return null;
    this.pending.delete(id);
    try {
      const bytes = Uint8Array.from(atob(p.parts.join('')), (c) => c.charCodeAt(0));
      const msg = JSON.parse(new TextDecoder().decode(bytes)) as {
        text?: unknown;
        is_final?: unknown;
        final?: unknown;
        stream_id?: unknown;
        role?: unknown;
        data_type?: unknown;
      };
      if (typeof msg.text !== 'string' || (msg.data_type !== undefined && msg.data_type !== 'transcribe')) return null;
      const role =
        msg.role === 'user'
          ? 'user'
          : msg.role === 'assistant' || msg.role === 'agent'
            ? 'agent'
            : Number(msg.stream_id) === this.localUid
              ? 'user'
              : 'agent';
      return { text: msg.text, final: msg.is_final === true || msg.final === true, role };
    } catch {
      return null;
    }
  }
}
