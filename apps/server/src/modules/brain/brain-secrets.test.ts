import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../lib/secrets';
import { encryptSecrets, maskSecrets, revealSecrets, storedSecret } from './brain-secrets';

const box = new SecretBox('unit-test-secret-key-0123456789-abcdefgh');
const CANARY = 'sk-canary-5f1e0c9d7b3a4e21';

function pipeline() {
  return {
    stt: { provider: 'deepgram', api_key: `${CANARY}-stt`, languages: 'multi' },
    tts: { provider: 'polly', api_key: `${CANARY}-akid`, secret_key: `${CANARY}-polly-secret`, voice_id: 'Joanna' },
    llm: { provider: 'openai', base_url: 'https://api.openai.com/v1', api_key: `${CANARY}-llm`, model: 'gpt-4o' },
    url: 'wss://api.openai.com/v1/realtime',
    api_key: `${CANARY}-realtime`,
    third_party: { agent_id: 'agent_0123456789', api_key: `${CANARY}-agent`, is_public: false },
  };
}

describe('pipeline secrets', () => {
  it('encrypts every secret and leaves the other fields alone', () => {
    const { config, unresolved } = encryptSecrets(box, pipeline(), undefined);
    expect(unresolved).toEqual([]);
    expect(JSON.stringify(config)).not.toContain(CANARY);
    expect(config.stt.languages).toBe('multi');
    expect(config.llm.model).toBe('gpt-4o');
    expect(revealSecrets(box, config)).toEqual(pipeline());
  });

  it('answers every secret masked, showing at most its last four characters', () => {
    const stored = encryptSecrets(box, pipeline(), undefined).config;
    const masked = maskSecrets(box, stored);
    expect(JSON.stringify(masked)).not.toContain(CANARY);
    expect(masked.stt.api_key).toBe('••••-stt');
    expect(masked.tts.secret_key).toBe('••••cret');
    expect(masked.api_key).toBe('••••time');
  });

  it('keeps the stored key when the masked value comes back for the same provider', () => {
    const stored = encryptSecrets(box, pipeline(), undefined).config;
    const incoming = maskSecrets(box, stored);
    incoming.llm.model = 'gpt-4o-mini';
    const { config, unresolved } = encryptSecrets(box, incoming, stored);
    expect(unresolved).toEqual([]);
    expect(config.llm.api_key).toBe(stored.llm.api_key);
    expect(revealSecrets(box, config).llm).toEqual({ ...pipeline().llm, model: 'gpt-4o-mini' });
  });

  it('does not carry a masked key over to another provider or base URL', () => {
    const stored = encryptSecrets(box, pipeline(), undefined).config;
    const incoming = maskSecrets(box, stored);
    incoming.llm.base_url = 'https://api.groq.com/openai/v1';
    incoming.llm.provider = 'groq';
    incoming.stt.provider = 'azure';
    const { config, unresolved } = encryptSecrets(box, incoming, stored);
    expect(unresolved).toEqual(['stt', 'llm']);
    expect(config.llm.api_key).toBeNull();
    expect(config.stt.api_key).toBeNull();
    expect(config.tts.api_key).toBe(stored.tts.api_key);
  });

  it("never keeps an ElevenLabs key for Agora TEN's certificate or the other way round", () => {
    const stored = encryptSecrets(box, pipeline(), undefined, { engine: 11 }).config;
    const incoming = maskSecrets(box, stored);
    expect(encryptSecrets(box, incoming, stored, { engine: 11, previousEngine: 11 }).unresolved).toEqual([]);
    const ten = encryptSecrets(box, incoming, stored, { engine: 8, previousEngine: 11 });
    expect(ten.unresolved).toEqual(['third_party']);
    expect(ten.config.third_party.api_key).toBeNull();
  });

  it('removes emptied secrets and reports a masked value with nothing stored', () => {
    const incoming = { ...pipeline(), api_key: '', third_party: { agent_id: 'a', api_key: '••••gent', is_public: false } };
    const { config, unresolved } = encryptSecrets(box, incoming, {});
    expect(config.api_key).toBeNull();
    expect(config.third_party.api_key).toBeNull();
    expect(unresolved).toEqual(['third_party']);
  });

  it('encrypts a legacy plain stored value when it is kept', () => {
    const legacy = { llm: { provider: 'rest', base_url: 'https://a.example', api_key: 'plain-legacy-rest-key' } };
    const { config } = encryptSecrets(box, { llm: { provider: 'rest', base_url: 'https://b.example', api_key: '••••-key' } }, legacy);
    expect(config.llm.api_key).toMatch(/^v1:/);
    expect(storedSecret(box, config, 'llm')).toEqual({ value: 'plain-legacy-rest-key', owner: 'rest' });
  });

  it('tolerates pipelines that are not objects', () => {
    expect(encryptSecrets(box, null, null).config).toBeNull();
    expect(maskSecrets(box, 'x')).toBe('x');
    expect(storedSecret(box, undefined, 'stt')).toBeNull();
  });
});
