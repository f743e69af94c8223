// Amazon Polly voices: DescribeVoices, GET https://polly.{region}.amazonaws.com/v1/voices signed
// with SigV4 (service polly); { Voices: [{ Id, Name, Gender, LanguageCode, LanguageName,
// SupportedEngines }], NextToken }. Each voice is listed once per engine it supports, Standard
// and Neural (spec 3 §3).
import { z } from 'zod';
import { withRegion } from '@parla/shared/provider-urls';
import { POLLY_ENGINES, type VoiceEntry } from '@parla/shared/providers';
import { pollyVoiceKey } from '@parla/shared/schemas/brain-pipeline';
import { signAws } from '../../../lib/aws-sign';
import type { VoiceSource } from './voice-source';

const answer = z.looseObject({
  Voices: z.array(
    z.looseObject({
      Id: z.string(),
      Name: z.string().nullish(),
      Gender: z.string().nullish(),
      LanguageCode: z.string().nullish(),
      LanguageName: z.string().nullish(),
      SupportedEngines: z.array(z.string()).nullish(),
    }),
  ),
  NextToken: z.string().nullish(),
});

const LABEL: Record<string, string> = { standard: 'Standard', neural: 'Neural' };

export function pollyVoices(now: () => Date): VoiceSource<{ accessKey: string; secretKey: string; region: string }> {
  return {
    request: (c, { accessKey, secretKey, region }, token) => {
      const url = new URL(withRegion(c.endpoints.pollyVoices, region));
      if (token) url.searchParams.set('NextToken', token);
      const signed = signAws({
        method: 'GET',
        url,
        region,
        service: 'polly',
        accessKeyId: accessKey,
        secretAccessKey: secretKey,
        now: now(),
      });
      const { host: _host, ...headers } = signed.headers;
      return { url: url.toString(), headers };
    },
    parse: (data): VoiceEntry[] | null => {
      const r = answer.safeParse(data);
      if (!r.success) return null;
      return r.data.Voices.flatMap((v) =>
        POLLY_ENGINES.filter((e) => (v.SupportedEngines ?? ['standard']).includes(e)).map((engine) => ({
          id: pollyVoiceKey(v.Id, engine),
          name: `${v.Name ?? v.Id} (${LABEL[engine]})`,
          languageCode: v.LanguageCode ?? '',
          languageName: v.LanguageName ?? v.LanguageCode ?? '',
          gender: v.Gender ?? '',
          supportedEngines: [engine],
          custom: false,
        })),
      );
    },
    next: (data) => {
      const r = answer.safeParse(data);
      return r.success ? (r.data.NextToken ?? undefined) : undefined;
    },
  };
}
