// Azure Speech: GET /{region}/cognitiveservices/voices/list (the region is the host on Azure,
// a path segment here) with Ocp-Apim-Subscription-Key; an array of voices.
import { json, type Handler } from './http';
import { STAND_IN_KEYS } from './keys';

const voice = (short: string, display: string, locale: string, localeName: string, gender: string) => ({
  Name: `Microsoft Server Speech Text to Speech Voice (${locale}, ${display}Neural)`,
  DisplayName: display,
  LocalName: display,
  ShortName: short,
  Gender: gender,
  Locale: locale,
  LocaleName: localeName,
  SampleRateHertz: '24000',
  VoiceType: 'Neural',
  Status: 'GA',
  WordsPerMinute: '152',
});

export const AZURE_VOICES = [
  voice('en-US-JennyNeural', 'Jenny', 'en-US', 'English (United States)', 'Female'),
  voice('en-US-GuyNeural', 'Guy', 'en-US', 'English (United States)', 'Male'),
  voice('en-GB-SoniaNeural', 'Sonia', 'en-GB', 'English (United Kingdom)', 'Female'),
  voice('de-DE-KatjaNeural', 'Katja', 'de-DE', 'German (Germany)', 'Female'),
];

export function azureSpeechHandler(): Handler {
  return ({ req, res, path, header }) => {
    const m = /^\/([a-z0-9-]+)\/cognitiveservices\/voices\/list$/.exec(path);
    if (req.method !== 'GET' || !m) return false;
    if (header('ocp-apim-subscription-key') !== STAND_IN_KEYS.azure) {
      return json(res, 401, {
        error: {
          code: '401',
          message:
            'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
        },
      });
    }
    return json(res, 200, AZURE_VOICES);
  };
}
