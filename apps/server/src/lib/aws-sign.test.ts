import { describe, expect, it } from 'vitest';
import { signAws } from './aws-sign';

// The AWS Signature Version 4 test suite's credentials and clock.
const base = {
  region: 'us-east-1',
  service: 'service',
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  now: new Date('2015-08-30T12:36:00Z'),
};
const prefix = 'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=';

describe('SigV4 (the aws4 package) against the AWS test suite', () => {
  it('signs get-vanilla', () => {
    const r = signAws({ ...base, method: 'GET', url: new URL('https://example.amazonaws.com/') });
    expect(r.headers.authorization).toBe(`${prefix}5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31`);
    expect(r.headers['x-amz-date']).toBe('20150830T123600Z');
  });

  it('signs get-vanilla-query-order-key-case (query sorted before signing)', () => {
    const r = signAws({ ...base, method: 'GET', url: new URL('https://example.amazonaws.com/?Param2=value2&Param1=value1') });
    expect(r.signature).toBe('b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500');
  });

  it('signs post-vanilla (an empty body hashes as the empty string)', () => {
    const r = signAws({ ...base, method: 'POST', url: new URL('https://example.amazonaws.com/') });
    expect(r.signature).toBe('5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b');
  });

  it('signs the host with its port and a session token when given', () => {
    const r = signAws({ ...base, method: 'GET', url: new URL('http://127.0.0.1:9000/v1/voices'), sessionToken: 'tok' });
    expect(r.headers.host).toBe('127.0.0.1:9000');
    expect(r.headers['x-amz-security-token']).toBe('tok');
    expect(r.headers.authorization).toContain('SignedHeaders=host;x-amz-date;x-amz-security-token');
  });
});
