// Languages of the speech-to-text providers whose lists are not read from the provider
// (POST /api/stt/list_voices answers these): Azure locale codes, and Google entries with the
// models and locations each language is recognised with. Deepgram's come from its /models.
import { SPOKEN_LANGUAGES, MULTILINGUAL_CODE } from './languages';

export interface GoogleSttLanguage {
  code: string;
  name: string;
  models: string[];
  locations: string[];
}

/** Azure speech-to-text locales: every spoken language of the product except the multilingual entry. */
export const AZURE_STT_LANGUAGES: readonly string[] = SPOKEN_LANGUAGES.map((l) => l.code).filter((c) => c !== MULTILINGUAL_CODE);

const ALL_MODELS = ['long', 'short', 'telephony', 'chirp_2'];
const CHIRP_LOCATIONS = ['global', 'us', 'eu', 'us-central1', 'europe-west4', 'asia-southeast1'];
const LONG_ONLY = ['long', 'short'];

const entry = (code: string, name: string, models = ALL_MODELS, locations = CHIRP_LOCATIONS): GoogleSttLanguage => ({
  code,
  name,
  models,
  locations,
});

export const GOOGLE_STT_LANGUAGES: readonly GoogleSttLanguage[] = [
  entry('en-US', 'English (United States)'),
  entry('en-GB', 'English (United Kingdom)'),
  entry('en-AU', 'English (Australia)'),
  entry('en-IN', 'English (India)'),
  entry('es-ES', 'Spanish (Spain)'),
  entry('es-US', 'Spanish (United States)'),
  entry('es-MX', 'Spanish (Mexico)'),
  entry('fr-FR', 'French (France)'),
  entry('fr-CA', 'French (Canada)'),
  entry('de-DE', 'German (Germany)'),
  entry('it-IT', 'Italian (Italy)'),
  entry('pt-BR', 'Portuguese (Brazil)'),
  entry('pt-PT', 'Portuguese (Portugal)'),
  entry('nl-NL', 'Dutch (Netherlands)'),
  entry('sv-SE', 'Swedish (Sweden)'),
  entry('da-DK', 'Danish (Denmark)'),
  entry('nb-NO', 'Norwegian Bokmål (Norway)', LONG_ONLY),
  entry('fi-FI', 'Finnish (Finland)', LONG_ONLY),
  entry('pl-PL', 'Polish (Poland)'),
  entry('cs-CZ', 'Czech (Czechia)', LONG_ONLY),
  entry('ro-RO', 'Romanian (Romania)', LONG_ONLY),
  entry('hu-HU', 'Hungarian (Hungary)', LONG_ONLY),
  entry('el-GR', 'Greek (Greece)', LONG_ONLY),
  entry('tr-TR', 'Turkish (Türkiye)'),
  entry('ru-RU', 'Russian (Russia)'),
  entry('uk-UA', 'Ukrainian (Ukraine)', LONG_ONLY),
  entry('ar-EG', 'Arabic (Egypt)'),
  entry('ar-SA', 'Arabic (Saudi Arabia)', LONG_ONLY),
  entry('he-IL', 'Hebrew (Israel)', LONG_ONLY),
  entry('hi-IN', 'Hindi (India)'),
  entry('bn-IN', 'Bengali (India)', LONG_ONLY),
  entry('ta-IN', 'Tamil (India)', LONG_ONLY),
  entry('th-TH', 'Thai (Thailand)', LONG_ONLY),
  entry('vi-VN', 'Vietnamese (Vietnam)'),
  entry('id-ID', 'Indonesian (Indonesia)'),
  entry('ms-MY', 'Malay (Malaysia)', LONG_ONLY),
  entry('fil-PH', 'Filipino (Philippines)', LONG_ONLY),
  entry('ja-JP', 'Japanese (Japan)'),
  entry('ko-KR', 'Korean (South Korea)'),
  entry('cmn-Hans-CN', 'Chinese, Mandarin (Simplified, China)'),
  entry('cmn-Hant-TW', 'Chinese, Mandarin (Traditional, Taiwan)'),
  entry('yue-Hant-HK', 'Chinese, Cantonese (Traditional, Hong Kong)', LONG_ONLY),
];

/** Shown first in the Google language list. */
export const GOOGLE_PREFERRED_STT_LANGUAGES: readonly string[] = [
  'en-US',
  'en-GB',
  'es-ES',
  'fr-FR',
  'de-DE',
  'it-IT',
  'pt-BR',
  'ja-JP',
  'hi-IN',
];
