import { describe, expect, it } from 'vitest';
import { applyUrlOverrides, buildBrainCatalogue, llmProviderForUrl, parseUrlOverrides, withRegion } from './provider-urls';
import { LLM_PROVIDERS, REALTIME_PROVIDERS, engineForMode } from './providers';
import { AvatarEngine } from './enums';

describe('the provider table', () => {
  it('offers the ten LLM base URLs and the realtime voices of spec 3 §3', () => {
    expect(LLM_PROVIDERS.map((p) => p.name)).toEqual([
      'OpenAI',
      'Groq',
      'Gemini',
      'Cerebras',
      'DeepSeek',
      'Fireworks',
      'Perplexity',
      'Telnyx',
      'Together',
      'xAI',
    ]);
    expect(REALTIME_PROVIDERS.find((p) => p.id === 'openai')!.voices).toHaveLength(8);
    expect(REALTIME_PROVIDERS.find((p) => p.id === 'gemini')!.voices).toHaveLength(5);
  });

  it('keeps an offered engine and falls back to the first offered one', () => {
    expect(engineForMode('Composite', AvatarEngine.RestEndpoint)).toBe(AvatarEngine.RestEndpoint);
    expect(engineForMode('SpeechToSpeech', AvatarEngine.RestEndpoint)).toBe(AvatarEngine.ParlaRealtime);
    expect(engineForMode('Simple', AvatarEngine.DialogflowCX)).toBe(AvatarEngine.EchoTest);
  });
});

describe('provider URL overrides', () => {
  const { overrides, errors } = parseUrlOverrides(
    'api.openai.com=http://127.0.0.1:9001, {region}.tts.speech.microsoft.com=http://127.0.0.1:9002/azure/{region}/,bad',
  );

  it('parses host=address pairs and names the bad ones', () => {
    expect(overrides).toEqual([
      { host: 'api.openai.com', base: 'http://127.0.0.1:9001' },
      { host: '{region}.tts.speech.microsoft.com', base: 'http://127.0.0.1:9002/azure/{region}' },
    ]);
    expect(errors).toEqual(['"bad" is not host=http(s)://address']);
  });

  it('redirects http and websocket URLs of a named host only', () => {
    expect(applyUrlOverrides('https://api.openai.com/v1/models', overrides)).toBe('http://127.0.0.1:9001/v1/models');
    expect(applyUrlOverrides('wss://api.openai.com/v1/realtime', overrides)).toBe('ws://127.0.0.1:9001/v1/realtime');
    expect(applyUrlOverrides('https://api.groq.com/openai/v1', overrides)).toBe('https://api.groq.com/openai/v1');
    const azure = applyUrlOverrides('https://{region}.tts.speech.microsoft.com/cognitiveservices/voices/list', overrides);
    expect(withRegion(azure, 'eastus')).toBe('http://127.0.0.1:9002/azure/eastus/cognitiveservices/voices/list');
  });

  it('refuses regions that are not plain names', () => {
    expect(() => withRegion('https://{region}.x', 'evil.com/')).toThrow();
  });

  it('builds the catalogue with the effective URLs', () => {
    const c = buildBrainCatalogue(overrides);
    const openai = c.llmProviders.find((p) => p.id === 'openai')!;
    expect(openai.baseUrl).toBe('http://127.0.0.1:9001/v1');
    expect(llmProviderForUrl(c, 'http://127.0.0.1:9001/v1/')?.id).toBe('openai');
    expect(c.realtimeProviders[0]!.url).toBe('ws://127.0.0.1:9001/v1/realtime');
  });
});
