import { describe, expect, it } from 'vitest';
import {
  ADVANCED_MESSAGES as A,
  advancedFormSchema,
  advancedFromAvatar,
  advancedToAvatar,
  readInterruptHandling,
  readVadOptions,
  validateAdvanced,
  type AdvancedForm,
} from './advanced';

const ctx = { speechToSpeech: false };

function valid(): AdvancedForm {
  return advancedFromAvatar({ wakeUpMessage: 'Hello!' }, ctx);
}

const messages = (f: AdvancedForm, c = ctx) => validateAdvanced(f, c).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('advanced form rules (spec 3 §5)', () => {
  it('starts valid with the defaults of spec 3 §9', () => {
    const f = valid();
    expect(messages(f)).toEqual([]);
    expect(f.idleTimeout).toBe(300);
    expect(f.wordsPerSecond).toBe(3);
    expect(f.interrupt_handling).toEqual({ allow_interruptions: true, min_interruption_duration: 0.5, min_interruption_words: 0 });
    expect(f.vad_options).toEqual({
      min_endpointing_delay: 0.5,
      max_endpointing_delay: 3,
      min_speech_duration: 0.05,
      min_silence_duration: 0.55,
      prefix_padding_duration: 0.5,
      max_buffered_speech: 60,
      activation_threshold: 0.5,
    });
  });

  it('uses the realtime VAD defaults for speech-to-speech avatars', () => {
    expect(advancedFromAvatar({}, { speechToSpeech: true }).vad_options).toEqual({
      threshold: 0.5,
      prefix_padding_ms: 300,
      silence_duration_ms: 500,
    });
  });

  it('checks the daily and demo limits', () => {
    const f = { ...valid(), dailyLimitPerSession: '', dailyLimitPerIP: 0, demoLimit: -2 };
    expect(messages(f)).toEqual([
      'dailyLimitPerSession: Daily Limit Per Session is required',
      'dailyLimitPerIP: Daily Limit Per IP must be greater than 0 or -1 for unlimited',
      'demoLimit: Demo duration limit must be greater than 0 or -1 for unlimited',
    ]);
    expect(messages({ ...valid(), dailyLimitPerIP: 'ten', demoLimit: 1.5, dailyLimitPerSession: 600 })).toEqual([
      'dailyLimitPerIP: Daily Limit Per IP must be greater than 0 or -1 for unlimited',
      'demoLimit: Demo duration limit must be a valid second.',
    ]);
  });

  it('checks the idle timeout', () => {
    expect(messages({ ...valid(), idleTimeout: '' })).toEqual([`idleTimeout: ${A.idleRequired}`]);
    expect(messages({ ...valid(), idleTimeout: 12.5 })).toEqual([`idleTimeout: ${A.idleInteger}`]);
    expect(messages({ ...valid(), idleTimeout: 601 })).toEqual([`idleTimeout: ${A.idleMax}`]);
    expect(messages({ ...valid(), idleTimeout: 600 })).toEqual([]);
  });

  it('checks interruptions and VAD values', () => {
    const f = valid();
    f.interrupt_handling = { allow_interruptions: true, min_interruption_duration: 0, min_interruption_words: 'x' };
    f.vad_options = { ...f.vad_options, min_speech_duration: -1, activation_threshold: 1.5 };
    expect(messages(f)).toEqual([
      `interrupt_handling.min_interruption_duration: ${A.mustBePositive}`,
      `interrupt_handling.min_interruption_words: ${A.mustBeNumber}`,
      `vad_options.min_speech_duration: ${A.mustBePositive}`,
      `vad_options.activation_threshold: ${A.zeroToOne}`,
    ]);
    f.interrupt_handling = { allow_interruptions: false, min_interruption_duration: 0.3, min_interruption_words: '' };
    f.vad_options = valid().vad_options;
    expect(messages(f)).toEqual([]);
  });

  it('requires the wake-up message and the switches', () => {
    const f = { ...valid(), wakeUpMessage: '  ', sendChatHistory: null, transcriptionStreaming: null };
    expect(messages(f)).toEqual([
      `wakeUpMessage: ${A.wakeUpRequired}`,
      `sendChatHistory: ${A.required}`,
      `transcriptionStreaming: ${A.required}`,
    ]);
  });

  it('checks the OAuth info', () => {
    expect(messages({ ...valid(), oauthEnabled: null })).toEqual([`oauthEnabled: ${A.oauthEnabledRequired}`]);
    expect(messages({ ...valid(), oauthEnabled: 1, partnerOauthAppId: '' })).toEqual([`partnerOauthAppId: ${A.oauthIdRequired}`]);
    expect(messages({ ...valid(), oauthEnabled: 1, partnerOauthAppId: 'abc' })).toEqual([`partnerOauthAppId: ${A.oauthIdNumber}`]);
    expect(messages({ ...valid(), billingAuthURL: 'not a url' })).toEqual([
      `billingAuthURL: ${A.notValidUrl}`,
      `billingAuthHeader: ${A.billingHeaderRequired}`,
    ]);
    expect(
      messages({
        ...valid(),
        oauthEnabled: 1,
        partnerOauthAppId: '7',
        billingAuthURL: 'https://billing.example/ping',
        billingAuthHeader: 'Bearer x',
      }),
    ).toEqual([]);
  });

  it('accepts the older interruption names on load', () => {
    expect(readInterruptHandling({ interrupt_speech_duration: 0.8, interrupt_min_words: 2 })).toEqual({
      allow_interruptions: true,
      min_interruption_duration: 0.8,
      min_interruption_words: 2,
    });
    expect(readInterruptHandling({ min_interruption_duration: 0.4, interrupt_speech_duration: 0.8 }).min_interruption_duration).toBe(0.4);
    expect(readVadOptions({ threshold: 0.7, junk: 1 }, { speechToSpeech: true })).toEqual({
      threshold: 0.7,
      prefix_padding_ms: 300,
      silence_duration_ms: 500,
    });
  });

  it('turns a valid form into avatar fields', () => {
    const f = { ...valid(), dailyLimitPerSession: '600', demoLimit: '-1', oauthEnabled: 1 as const, partnerOauthAppId: '12' };
    expect(advancedToAvatar(f, ctx)).toMatchObject({ dailyLimitPerSession: 600, demoLimit: -1, partnerOauthAppId: '12', words_per_sec: 3 });
  });

  it('hands back what was typed, so a tab opened again shows it and the checks still report it', () => {
    const f = {
      ...valid(),
      dailyLimitPerIP: '',
      demoLimit: 'ten',
      interrupt_handling: { allow_interruptions: true, min_interruption_duration: 0.5, min_interruption_words: 'many' },
    };
    const out = advancedToAvatar(f, ctx);
    expect(out).toMatchObject({ dailyLimitPerIP: null, demoLimit: 'ten', interrupt_handling: { min_interruption_words: 'many' } });
    const back = advancedFromAvatar(
      {
        wakeUpMessage: 'Hi',
        dailyLimitPerIP: out.dailyLimitPerIP,
        dailyLimits: { Demo: out.demoLimit },
        customData: { agent_pipeline_config: { interrupt_handling: out.interrupt_handling } },
      },
      ctx,
    );
    expect(messages(back)).toEqual([
      'dailyLimitPerIP: Daily Limit Per IP is required',
      'demoLimit: Demo duration limit must be greater than 0 or -1 for unlimited',
      `interrupt_handling.min_interruption_words: ${A.mustBeNumber}`,
    ]);
  });

  it('reports issues through the zod schema', () => {
    const r = advancedFormSchema(ctx).safeParse({ ...valid(), wakeUpMessage: '' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toBe(A.wakeUpRequired);
  });
});
