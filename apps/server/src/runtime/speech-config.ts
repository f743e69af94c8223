// The speech half of an avatar's configuration (decision 612): the STT, TTS and turn settings
// of its Brain tab, "Default" (and Simple mode) being the product's own speech, SPEECH_BASE_URL
// over the OpenAI audio API, or, when that is unset, the embedded voice shipped with the server
// (decision 122: English only; another language keeps the browser's voice). Provider hosts go
// through PROVIDER_URL_OVERRIDES (`url`).
import type { PipelineConfig } from '@parla/shared/schemas/avatar';
import type { Config } from '../config';
import { bool, num, obj, str } from './loose';
import { embeddedTts, embeddedVoiceFor, isEmbeddedVoice, speaksEmbedded } from './engines/embedded/embedded-tts';
import { DEFAULT_TURN_SETTINGS, type SpeechConfig, type SttConfig, type TtsConfig, type TurnSettings } from './types';

/** The Brain tab's context phrases: one per line or comma-separated, at most 100. */
export function contextPhrases(v: unknown): string[] {
  return str(v)
    .split(/[\n,;]/)
    .map((x) => x.trim())
    .filter(Boolean)
    .slice(0, 100);
}

/** The avatar's first STT language, the language it speaks (the player's `language` too). */
const languageOf = (p: PipelineConfig): string => str(obj(p.stt).languages).split(',')[0]?.trim() || 'en-US';

/** The STT provider a pipeline names ("default" when it names none). */
export const sttKey = (p: PipelineConfig): string => str(obj(p.stt).provider).toLowerCase() || 'default';

/** Who speaks: the avatar's gender (catalogue) and the voice picked in the Brain tab, if any. */
interface Voicing {
  gender: string | undefined;
  picked: string;
}

export class SpeechConfigMapper {
  constructor(
    private readonly config: Pick<
      Config,
      'SPEECH_BASE_URL' | 'SPEECH_API_KEY' | 'SPEECH_STT_MODEL' | 'SPEECH_TTS_MODEL' | 'SPEECH_TTS_VOICE' | 'EMBEDDED_VOICE'
    >,
    private readonly url: (u: string) => string,
  ) {}

  /** The product's own speech (SPEECH_BASE_URL, the OpenAI audio API), or null when unset. */
  private productStt(language: string, phrases: string[]): SttConfig | null {
    const c = this.config;
    if (!c.SPEECH_BASE_URL) return null;
    return {
      provider: 'openai',
      apiBase: this.url(c.SPEECH_BASE_URL),
      apiKey: c.SPEECH_API_KEY ?? '',
      language,
      model: c.SPEECH_STT_MODEL,
      ...(phrases.length ? { phrases } : {}),
    };
  }

  /** The product's own voice: an embedded voice picked in the Brain tab; else the speech server
   *  when set; else, for an English avatar, the embedded voice of the avatar's gender. */
  private productTts(language: string, voice: Voicing): TtsConfig | null {
    const c = this.config;
    const embedded = c.EMBEDDED_VOICE && speaksEmbedded(language);
    // An embedded voice the customer picked is what visitors hear, speech server or not.
    if (embedded && isEmbeddedVoice(voice.picked)) return embeddedTts(voice.picked);
    if (!c.SPEECH_BASE_URL) return embedded ? embeddedTts(embeddedVoiceFor(voice.gender, language)) : null;
    return {
      provider: 'openai',
      apiBase: this.url(c.SPEECH_BASE_URL),
      apiKey: c.SPEECH_API_KEY ?? '',
      voiceId: c.SPEECH_TTS_VOICE,
      model: c.SPEECH_TTS_MODEL,
    };
  }

  stt(p: PipelineConfig): SttConfig | null {
    const s = obj(p.stt);
    const provider = sttKey(p);
    const languages = str(s.languages)
      .split(',')
      .map((l) => l.trim())
      .filter(Boolean);
    const language = languages[0] || 'en-US';
    const apiKey = str(s.api_key);
    const phrases = contextPhrases(s.context_phrases);
    // The additional STT languages (decision 623), for the providers that recognise several.
    const more = languages.slice(1, 11);
    const extra = {
      ...(str(s.model) ? { model: str(s.model) } : {}),
      ...(phrases.length ? { phrases } : {}),
      ...(more.length ? { alternativeLanguages: more } : {}),
    };
    if (provider === 'default') return this.productStt(language, phrases);
    if (provider === 'deepgram') return { provider, apiBase: this.url('https://api.deepgram.com'), apiKey, language, ...extra };
    if (provider === 'google') return { provider, apiBase: this.url('https://speech.googleapis.com'), apiKey, language, ...extra };
    if (provider === 'azure')
      return {
        provider,
        apiBase: this.url(`https://${str(s.region) || 'westeurope'}.api.cognitive.microsoft.com`),
        apiKey,
        language,
        ...(phrases.length ? { phrases } : {}),
      };
    return null;
  }

  tts(p: PipelineConfig, gender?: string): TtsConfig | null {
    const t = obj(p.tts);
    const provider = str(t.provider).toLowerCase() || 'default';
    const voiceId = str(t.voice_id);
    const apiKey = str(t.api_key);
    const model = str(t.model);
    const speed = num(t.speed, 0);
    const region = str(t.region);
    const common = { apiKey, voiceId, ...(model ? { model } : {}), ...(speed ? { speed } : {}) };
    if (provider === 'default') return this.productTts(languageOf(p), { gender, picked: voiceId });
    if (provider === 'elevenlabs') return { provider, apiBase: this.url('https://api.elevenlabs.io'), ...common };
    if (provider === 'cartesia') return { provider, apiBase: this.url('https://api.cartesia.ai'), ...common };
    if (provider === 'azure')
      return { provider, apiBase: this.url(`https://${region || 'westeurope'}.tts.speech.microsoft.com`), ...common };
    if (provider === 'polly') {
      const r = region || 'us-east-1';
      return { provider, apiBase: this.url(`https://polly.${r}.amazonaws.com`), ...common, secretKey: str(t.secret_key), region: r };
    }
    if (provider === 'neuphonic')
      return { provider, apiBase: this.url('https://api.neuphonic.com'), ...common, language: str(t.lang_code) || 'en' };
    return null;
  }

  /** Server speech around a text brain (decision 612): Simple mode gets the product's own; a
   *  Composite avatar the STT and TTS of its Brain tab ("Default" = the product's own). */
  speech(simple: boolean, p: PipelineConfig, gender?: string): SpeechConfig | null {
    const language = languageOf(p);
    const stt = simple ? this.productStt(language, contextPhrases(obj(p.stt).context_phrases)) : this.stt(p);
    const tts = simple ? this.productTts(language, { gender, picked: str(obj(p.tts).voice_id) }) : this.tts(p, gender);
    return stt || tts ? { stt, tts, turn: this.turn(p) } : null;
  }

  turn(p: PipelineConfig): TurnSettings {
    const i = obj(p.interrupt_handling);
    const v = obj(p.vad_options);
    const d = DEFAULT_TURN_SETTINGS;
    return {
      allowInterruptions: bool(i.allow_interruptions, d.allowInterruptions),
      minInterruptionDuration: num(i.min_interruption_duration ?? i.interrupt_speech_duration, d.minInterruptionDuration),
      minInterruptionWords: num(i.min_interruption_words ?? i.interrupt_min_words, d.minInterruptionWords),
      minEndpointingDelay: num(v.min_endpointing_delay, d.minEndpointingDelay),
      maxEndpointingDelay: num(v.max_endpointing_delay, d.maxEndpointingDelay),
      minSpeechDuration: num(v.min_speech_duration, d.minSpeechDuration),
      minSilenceDuration: num(v.min_silence_duration, d.minSilenceDuration),
      prefixPaddingDuration: num(v.prefix_padding_duration, d.prefixPaddingDuration),
      maxBufferedSpeech: num(v.max_buffered_speech, d.maxBufferedSpeech),
      activationThreshold: num(v.activation_threshold, d.activationThreshold),
    };
  }
}
