// AWS Signature Version 4 through the maintained `aws4` package (decision 613): Polly's voice
// list and speech. The clock is the caller's (tests and stand-ins sign for a given time).
import aws4 from 'aws4';

export interface AwsSignInput {
  method: string;
  url: URL;
  region: string;
  service: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  body?: string;
  /** Extra headers to send and sign. */
  headers?: Record<string, string>;
  now: Date;
}

export interface AwsSigned {
  /** Every header to send (lower-case names), authorization and host included. */
  headers: Record<string, string>;
  signature: string;
}

export function amzDate(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

export function signAws(input: AwsSignInput): AwsSigned {
  const request: aws4.Request = {
    host: input.url.host,
    path: `${input.url.pathname}${input.url.search}`,
    method: input.method.toUpperCase(),
    service: input.service,
    region: input.region,
    headers: { ...input.headers, 'X-Amz-Date': amzDate(input.now) },
    ...(input.body !== undefined ? { body: input.body } : {}),
  };
  aws4.sign(request, {
    accessKeyId: input.accessKeyId,
    secretAccessKey: input.secretAccessKey,
    ...(input.sessionToken ? { sessionToken: input.sessionToken } : {}),
  });
  const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
  const signature = /Signature=([0-9a-f]{64})/.exec(headers.authorization ?? '')?.[1] ?? '';
  return { headers, signature };
}
