// From a saved avatar's fields to what acts at run time (issue 13): the settings, the engine
// configuration's share of them (permission bit 1, agent language) and the history window.
import { describe, expect, it } from 'vitest';
import { settingsOf, pingSeconds, transcriptDownloadAllowed } from './avatar-settings';
import { languageInstruction, withSettings } from './engine-settings';
import { historyWindow } from './conversation/history-window';
import type { EngineConfig } from './types';

const row = (over: Record<string, unknown> = {}) => ({
  wake_up_message: ' Hello! ',
  permissions: 0,
  realtime: false,
  agent_language: 'fr',
  billing_auth_url: null as string | null,
  billing_auth_ping_time: 30,
  custom_data: {},
  ...over,
});

describe('avatar settings', () => {
  it('reads the wake-up message, bit 2, streaming and summaries (on by default, off when either switch says so)', () => {
    const s = settingsOf(row({ permissions: 3, custom_data: { transcriptionStreaming: true } }), 'FREE', null);
    expect(s).toMatchObject({
      wakeUpMessage: 'Hello!',
      handleSttResponse: true,
      transcriptionStreaming: true,
      summaryEnabled: true,
      billingAuth: null,
      agentLanguage: 'fr',
    });
    expect(settingsOf(row({ permissions: 1 }), 'FREE', null).handleSttResponse).toBe(false);
    expect(settingsOf(row({ custom_data: { summaryEnabled: false } }), 'FREE', null).summaryEnabled).toBe(false);
    expect(
      settingsOf(row({ custom_data: { agent_pipeline_config: { llm: { summary_enabled: false } } } }), 'FREE', null).summaryEnabled,
    ).toBe(false);
  });

  it('offers the transcript download only to realtime avatars with the option on PRO or ENTERPRISE', () => {
    const on = { realtime: true, custom_data: { enable_transcript_download: true } };
    expect(transcriptDownloadAllowed(on, 'PRO')).toBe(true);
    expect(transcriptDownloadAllowed(on, 'ENTERPRISE')).toBe(true);
    expect(transcriptDownloadAllowed(on, 'STARTER')).toBe(false);
    expect(transcriptDownloadAllowed({ ...on, realtime: false }, 'PRO')).toBe(false);
    expect(transcriptDownloadAllowed({ realtime: true, custom_data: {} }, 'PRO')).toBe(false);
  });

  it('pings the billing service every billingAuthPingTime seconds, 30 when the value makes no sense', () => {
    expect(
      settingsOf(row({ billing_auth_url: 'https://bill.example/auth', billing_auth_ping_time: 60 }), 'PRO', 'Bearer k').billingAuth,
    ).toEqual({ url: 'https://bill.example/auth', header: 'Bearer k', pingSeconds: 60 });
    expect([pingSeconds(-1), pingSeconds(0), pingSeconds(1), pingSeconds(10)]).toEqual([30, 30, 30, 10]);
  });
});

describe('engine settings', () => {
  const rest: EngineConfig = { kind: 'rest', url: 'https://bot.example', apiKey: 'k' };
  it('gives REST and Dialogflow the history only with permission bit 1', () => {
    expect(withSettings(rest, { permissions: 1, agent_language: 'en' })).toMatchObject({ sendHistory: true });
    expect(withSettings(rest, { permissions: 2, agent_language: 'en' })).toMatchObject({ sendHistory: false });
  });

  it('makes every model answer in the agent language (none for multilingual)', () => {
    const llm: EngineConfig = {
      kind: 'llm',
      baseUrl: 'u',
      apiKey: 'k',
      model: 'm',
      instructions: 'Be kind.',
      memory: '',
      sendHistory: true,
      tools: [],
    };
    expect((withSettings(llm, { permissions: 0, agent_language: 'fr-FR' }) as { instructions: string }).instructions).toBe(
      `Be kind.\n\n${languageInstruction('fr-FR')}`,
    );
    expect(languageInstruction('fr-FR')).toMatch(/^Always answer in French.*\(fr-FR\)/);
    expect(languageInstruction('aa')).toBe('');
  });
});

describe('the history window', () => {
  it('keeps the last 50 messages and at most 32 KB, newest first kept, and cuts one message larger than the window', () => {
    const many = Array.from({ length: 120 }, (_, i) => ({ role: 'user' as const, content: `m${i}` }));
    const w = historyWindow(many);
    expect(w).toHaveLength(50);
    expect(w.at(-1)!.content).toBe('m119');
    const big = Array.from({ length: 20 }, (_, i) => ({ role: 'assistant' as const, content: `${i}:${'y'.repeat(4000)}` }));
    const b = historyWindow(big);
    expect(b.length).toBe(8);
    expect(b.at(-1)!.content.startsWith('19:')).toBe(true);
    const huge = historyWindow([{ role: 'user', content: 'z'.repeat(100_000) }]);
    expect(Buffer.byteLength(huge[0]!.content)).toBeLessThanOrEqual(32 * 1024);
  });
});

describe('the agent language instruction', () => {
  it("names a short code's language", () => {
    expect(languageInstruction('en')).toBe('Always answer in English (en), whatever language the user writes in.');
  });
});
