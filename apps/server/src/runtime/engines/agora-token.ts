// Agora RTC tokens (AccessToken2, "007"): what a player needs to join the channel an Agora TEN
// agent talks in. Little-endian packing, HMAC-SHA256 signing, zlib, base64.
import { createHmac, randomInt } from 'node:crypto';
import { deflateSync } from 'node:zlib';

const u16 = (v: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(v);
  return b;
};
const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v >>> 0);
  return b;
};
const str = (v: string | Buffer) => {
  const b = Buffer.isBuffer(v) ? v : Buffer.from(v, 'utf8');
  return Buffer.concat([u16(b.length), b]);
};

export const RTC_SERVICE = 1;
export const RtcPrivilege = { joinChannel: 1, publishAudio: 2, publishVideo: 3, publishData: 4 } as const;

export interface RtcTokenInput {
  appId: string;
  appCertificate: string;
  channel: string;
  uid: number;
  issuedAt: number;
  ttlSeconds: number;
  salt?: number;
}

export function buildRtcToken(input: RtcTokenInput): string {
  const salt = input.salt ?? randomInt(1, 99_999_999);
  const expireAt = input.ttlSeconds;
  const privileges = [RtcPrivilege.joinChannel, RtcPrivilege.publishAudio, RtcPrivilege.publishVideo, RtcPrivilege.publishData];
  const service = Buffer.concat([
    u16(RTC_SERVICE),
    u16(privileges.length),
    ...privileges.flatMap((p) => [u16(p), u32(expireAt)]),
    str(input.channel),
    str(input.uid === 0 ? '' : String(input.uid)),
  ]);
  const signingInfo = Buffer.concat([str(input.appId), u32(input.issuedAt), u32(input.ttlSeconds), u32(salt), u16(1), service]);
  let signing = createHmac('sha256', u32(input.issuedAt)).update(input.appCertificate).digest();
  signing = createHmac('sha256', u32(salt)).update(signing).digest();
  const signature = createHmac('sha256', signing).update(signingInfo).digest();
  const content = Buffer.concat([str(signature), signingInfo]);
  return `007${deflateSync(content).toString('base64')}`;
}
