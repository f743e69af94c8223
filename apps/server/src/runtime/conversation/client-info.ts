// Who is on the other end of a conversation: read from the client's optional `hello` frame,
// with defaults (the IP stands in for a device id the player did not send).
export interface ClientInfo {
  userName: string;
  userId: string;
  deviceId: string;
  deviceOS: string;
  locale: string;
  spokenLanguage: string;
}

function str(v: unknown, max = 200): string {
  return typeof v === 'string' ? v.slice(0, max) : '';
}

export function clientInfo(hello: Record<string, unknown>, ip: string): ClientInfo {
  const deviceId = str(hello.deviceId) || `ip:${ip}`;
  return {
    userName: str(hello.userName) || 'Guest',
    userId: str(hello.userId) || deviceId,
    deviceId,
    deviceOS: str(hello.deviceOS) || 'Unknown',
    locale: str(hello.locale, 35) || 'en-US',
    spokenLanguage: str(hello.spokenLanguage, 35) || str(hello.locale, 35) || 'en-US',
  };
}

/** The first frame, if it is a hello: its fields; any other first frame is kept to be handled
 *  as the conversation's first message once it is ready. */
export function readFirstFrame(first: string | null): { hello: Record<string, unknown>; pending: string | null } {
  if (!first) return { hello: {}, pending: null };
  try {
    const v = JSON.parse(first) as Record<string, unknown>;
    if (v && v.type === 'hello') return { hello: v, pending: null };
  } catch {
    // not JSON: handled (and answered) as a frame once the conversation is ready
  }
  return { hello: {}, pending: first };
}
