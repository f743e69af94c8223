// Deepgram's management API: GET /v1/models ({ stt: [...], tts: [...] }) and GET /v1/auth/token
// ({ accessor }), and pre-recorded transcription (POST /v1/listen with raw linear16 audio: it
// "hears" DEEPGRAM_HEARD when the body holds audio), all with `Authorization: Token <key>`.
import { json, type Handler } from './http';
import { STAND_IN_KEYS } from './keys';

const stt = (name: string, canonical: string, languages: string[]) => ({
  name,
  canonical_name: canonical,
  architecture: name.split('-')[0],
  languages,
  version: '2025-01-01.0',
  uuid: `00000000-0000-4000-8000-${canonical.length.toString().padStart(12, '0')}`,
  batch: true,
  streaming: true,
  formatted_output: true,
});

export const DEEPGRAM_MODELS = {
  stt: [
    stt('nova-3', 'nova-3-general', ['multi', 'en', 'en-US', 'en-GB', 'es', 'fr', 'de', 'hi', 'ja', 'nl', 'pt', 'ru', 'it']),
    stt('nova-2', 'nova-2-general', ['en', 'en-US', 'es', 'fr', 'de', 'da', 'sv']),
    stt('flux', 'flux-general-en', ['en']),
  ],
  tts: [
    {
      name: 'aura-2-thalia-en',
      canonical_name: 'aura-2-thalia-en',
      architecture: 'aura-2',
      languages: ['en'],
      version: '2025-04-07.0',
      uuid: '00000000-0000-4000-8000-000000000099',
    },
  ],
};

/** What the stand-in transcribes from any audio it is sent. */
export const DEEPGRAM_HEARD = 'hello what are your opening hours today';

export function deepgramHandler(): Handler {
  return ({ req, res, path, query, header }) => {
    const listen = req.method === 'POST' && path === '/v1/listen';
    if (!listen && (req.method !== 'GET' || (path !== '/v1/models' && path !== '/v1/auth/token'))) return false;
    if (header('authorization') !== `Token ${STAND_IN_KEYS.deepgram}`) {
      return json(res, 401, {
        err_code: 'INVALID_AUTH',
        err_msg: 'Invalid credentials.',
        request_id: '11111111-2222-4333-8444-555555555555',
      });
    }
    if (listen) {
      if (query.get('encoding') !== 'linear16' || !query.get('sample_rate'))
        return json(res, 400, { err_code: 'Bad Request', err_msg: 'encoding and sample_rate are required for raw audio' });
      let bytes = 0;
      req.on('data', (d: Buffer) => (bytes += d.length));
      req.on('end', () => {
        json(res, 200, {
          metadata: { duration: bytes / 2 / Number(query.get('sample_rate')) },
          results: { channels: [{ alternatives: [{ transcript: bytes > 3200 ? DEEPGRAM_HEARD : '', confidence: 0.97 }] }] },
        });
      });
      return true;
    }
    if (path === '/v1/auth/token') return json(res, 200, { accessor: 'c0ffee00-0000-4000-8000-000000000001' });
    return json(res, 200, DEEPGRAM_MODELS);
  };
}
