// Amazon Polly DescribeVoices: GET /{region}/v1/voices signed with SigV4 (the region is in the
// host on AWS, a path segment here). The stand-in checks the signature against the secret it
// knows and answers in pages of two voices (NextToken).
import { signAws } from '../../src/lib/aws-sign';
import { json, type Handler } from './http';
import { STAND_IN_KEYS } from './keys';

export const POLLY_VOICES = [
  {
    Gender: 'Female',
    Id: 'Joanna',
    LanguageCode: 'en-US',
    LanguageName: 'US English',
    Name: 'Joanna',
    SupportedEngines: ['generative', 'long-form', 'neural', 'standard'],
  },
  {
    Gender: 'Male',
    Id: 'Matthew',
    LanguageCode: 'en-US',
    LanguageName: 'US English',
    Name: 'Matthew',
    SupportedEngines: ['neural', 'standard'],
  },
  {
    Gender: 'Female',
    Id: 'Amy',
    LanguageCode: 'en-GB',
    LanguageName: 'British English',
    Name: 'Amy',
    SupportedEngines: ['neural', 'standard'],
  },
  { Gender: 'Female', Id: 'Ivy', LanguageCode: 'en-US', LanguageName: 'US English', Name: 'Ivy', SupportedEngines: ['standard'] },
  { Gender: 'Male', Id: 'Hans', LanguageCode: 'de-DE', LanguageName: 'German', Name: 'Hans', SupportedEngines: ['standard'] },
];

const PAGE = 2;
const CREDENTIAL =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([a-z0-9-]+)\/polly\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;

export function pollyHandler(port: () => number, prefix: string): Handler {
  return ({ req, res, path, header }) => {
    const m = /^\/([a-z0-9-]+)\/v1\/voices$/.exec(path);
    if (req.method !== 'GET' || !m) return false;
    const region = m[1]!;
    const auth = CREDENTIAL.exec(header('authorization'));
    if (!auth || auth[1] !== STAND_IN_KEYS.pollyAccessKey) {
      return json(
        res,
        403,
        { message: 'The security token included in the request is invalid.' },
        { 'x-amzn-errortype': 'UnrecognizedClientException' },
      );
    }
    const date = header('x-amz-date');
    const now = new Date(
      `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
    );
    const url = new URL(req.url ?? '/', `http://${header('host') || `127.0.0.1:${port()}`}`);
    const expected = signAws({
      method: 'GET',
      url,
      region,
      service: 'polly',
      accessKeyId: STAND_IN_KEYS.pollyAccessKey,
      secretAccessKey: STAND_IN_KEYS.pollySecretKey,
      now,
    });
    if (auth[3] !== region || auth[5] !== expected.signature || !url.pathname.startsWith(prefix)) {
      return json(
        res,
        403,
        { message: 'The request signature we calculated does not match the signature you provided.' },
        { 'x-amzn-errortype': 'InvalidSignatureException' },
      );
    }
    const start = Number(url.searchParams.get('NextToken') ?? '0');
    const page = POLLY_VOICES.slice(start, start + PAGE);
    const next = start + PAGE < POLLY_VOICES.length ? String(start + PAGE) : undefined;
    return json(res, 200, { Voices: page, ...(next ? { NextToken: next } : {}) });
  };
}
