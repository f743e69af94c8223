// What an avatar's settings do to one conversation (issue 13, docs/settings.md): its transcript,
// the memory of the same verified end user's last conversation, the fields of `ready` the player
// acts on, the billing authorisation, the wake-up turn, and the summary at the end. The
// conversation calls it at those moments; without settings (tests' own avatars) it records the
// transcript and does nothing else.
import type { ResolvedAvatar } from '../avatar';
import { NO_SETTINGS, type AvatarSettings } from '../avatar-settings';
import type { EngineConfig, EngineDeps, LlmConfig, OpenInfo } from '../types';
import { BillingAuthorisation, type BillingEnd } from './billing-auth';
import type { ClientInfo } from './client-info';
import { summarise, summaryModel, withMemory } from './summary';
import type { ConversationStore, Logger, TranscriptStore } from './ports';
import { Transcript } from './transcript';

/** Engines whose brain is not ours to ask: the third-party agent greets by itself. */
const NO_WAKE_UP = new Set<EngineConfig['kind']>(['elevenlabs', 'agora_ten']);

/** Where transcripts go when the conversation was given no store (tests' own parts). */
const NO_TRANSCRIPTS: TranscriptStore = { add: () => undefined, flush: () => Promise.resolve() };

/** What the effects need of the conversation's collaborators (a slice of ConversationDeps). */
export interface EffectsDeps {
  conversations: ConversationStore;
  transcripts?: TranscriptStore;
  engines?: EngineDeps;
  productModel?: LlmConfig | null;
  transcriptUrl?(id: string): string;
  log: Logger;
  now(): Date;
}

export class AvatarEffects {
  readonly transcript: Transcript;
  readonly settings: AvatarSettings;
  private readonly billing: BillingAuthorisation | null;
  /** The summary being written after the end (tests wait for it). */
  summaryDone: Promise<void> = Promise.resolve();
  /** The analysis of the written transcript after the end (tests wait for it). */
  analysed: Promise<void> = Promise.resolve();

  constructor(
    private readonly id: string,
    private readonly avatar: ResolvedAvatar,
    client: ClientInfo,
    private readonly d: EffectsDeps,
  ) {
    this.settings = avatar.settings ?? NO_SETTINGS;
    this.transcript = new Transcript(id, avatar, { transcripts: d.transcripts ?? NO_TRANSCRIPTS, now: d.now });
    const b = this.settings.billingAuth;
    this.billing =
      b && d.engines
        ? new BillingAuthorisation(
            b,
            { sessionId: id, avatarId: avatar.id, userId: client.userId, deviceId: client.deviceId },
            { outbound: d.engines.outbound, log: d.log, now: d.now },
          )
        : null;
  }

  /** The engine's configuration with the remembered summary of this verified end user. */
  async engineWithMemory(engine: EngineConfig): Promise<EngineConfig> {
    const userId = this.avatar.verifiedUserId;
    if (!this.settings.summaryEnabled || !userId || !this.d.conversations.lastSummary) return engine;
    try {
      return withMemory(engine, await this.d.conversations.lastSummary(this.avatar.ownerId, this.avatar.id, userId));
    } catch (err) {
      this.d.log.warn({ err: String(err) }, 'reading the last summary failed');
      return engine;
    }
  }

  /** What the player is told in `ready`: how to treat recognised speech, whether to stream
   *  transcripts, and where the end user downloads their transcript (only when allowed). */
  readyFields(): { handleSttResponse?: true; transcriptionStreaming?: boolean; transcriptUrl?: string } {
    const s = this.avatar.settings;
    if (!s) return {};
    return {
      ...(s.handleSttResponse ? { handleSttResponse: true as const } : {}),
      transcriptionStreaming: s.transcriptionStreaming,
      ...(s.transcriptDownload && this.d.transcriptUrl ? { transcriptUrl: this.d.transcriptUrl(this.id) } : {}),
    };
  }

  get billed(): boolean {
    return this.billing !== null;
  }

  billingAtStart(): Promise<BillingEnd | null> {
    return this.billing ? this.billing.check('start') : Promise.resolve(null);
  }

  billingAtTick(nowMs: number): Promise<BillingEnd | null> {
    return this.billing ? this.billing.atTick(nowMs) : Promise.resolve(null);
  }

  /** The wake-up message to send as the first, hidden turn — none while echoing for a used-up
   *  allowance is still an echo of it; none when a realtime greeting is configured (it wins)
   *  or the engine is a third-party agent. */
  wakeUpText(echo: boolean, opened: OpenInfo): string {
    const text = this.settings.wakeUpMessage;
    if (!text) return '';
    if (!echo && (opened.greeting || NO_WAKE_UP.has(this.avatar.engine.kind))) return '';
    return text;
  }

  /** The conversation has ended: its summary is written when enabled and something was said. */
  ended(): void {
    const analyse = this.d.conversations.analyse;
    if (analyse)
      this.analysed = this.transcript
        .flushed()
        .then(() => analyse(this.id))
        .catch((err: unknown) => this.d.log.info({ err: String(err), conversationId: this.id }, 'the conversation could not be analysed'));
    if (!this.settings.summaryEnabled || !this.d.engines || !this.d.conversations.saveSummary) return;
    if (!this.transcript.lines.some((l) => l.role === 'user')) return;
    const model = summaryModel(this.avatar.engine, this.d.productModel ?? null);
    if (!model) return;
    const deps = this.d.engines;
    const save = this.d.conversations.saveSummary;
    this.summaryDone = (async () => {
      try {
        await this.transcript.flushed();
        const summary = await summarise(model, this.transcript.text(), deps);
        if (summary) await save(this.id, summary);
      } catch (err) {
        this.d.log.info({ err: String(err), conversationId: this.id }, 'the conversation could not be summarised');
      }
    })();
  }
}
