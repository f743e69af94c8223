// Stand-in for a customer's REST endpoint: records LOGIN, CHAT and LOGOUT events (checking the
// Bearer key) and answers CHAT with a reply. It can push into a conversation through the
// callback URL it was given, as a real endpoint would later.
import { sendJson, startHttp, type StandIn } from './http';

export const REST_KEY = 'rest-api-key-0123456789';

export interface RestStandIn extends StandIn {
  events(): { event: string; sessionId: string; userId: string; locale: string; message?: string; callbackUrl: string; lastSeen: string }[];
  /** POSTs a message to the last callback URL it was given (origin replaced when the server's
   *  public URL is not reachable from the test). */
  push(message: string, origin?: string): Promise<number>;
}

export async function startRestStandIn(): Promise<RestStandIn> {
  const http = await startHttp((req, res) => {
    if (req.headers.authorization !== `Bearer ${REST_KEY}`) return sendJson(res, 401, { error: 'bad key' });
    const b = req.json() as { event: string; message?: string };
    if (b.event === 'CHAT') return sendJson(res, 200, { reply: `REST says: ${b.message ?? ''}` });
    return sendJson(res, 200, { status: 'ok' });
  });
  const events = () => http.requests.filter((r) => r.method === 'POST').map((r) => r.json());
  return {
    ...http,
    events,
    push: async (message, origin) => {
      const last = events()
        .reverse()
        .find((e) => e.callbackUrl);
      const url = new URL(last.callbackUrl);
      const target = origin ? `${origin}${url.pathname}${url.search}` : url.toString();
      const res = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message }),
      });
      return res.status;
    },
  };
}
