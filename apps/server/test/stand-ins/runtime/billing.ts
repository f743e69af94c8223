// Stand-in for a customer's billing authorisation service: records each call (its Authorization
// header and JSON body) and answers with the status the test sets (200 {authorized: true} by
// default; `refuse` answers 402, `fail` answers 503).
import { sendJson, startHttp, type Recorded, type StandIn } from './http';

export interface BillingStandIn extends StandIn {
  mode: 'ok' | 'refuse' | 'fail' | 'deny-body';
  calls(): { auth: string | undefined; body: { event: string; sessionId: string; avatarId: string; userId: string; deviceId: string } }[];
}

export async function startBillingStandIn(): Promise<BillingStandIn> {
  const self = { mode: 'ok' } as BillingStandIn;
  const http = await startHttp((_req: Recorded, res) => {
    if (self.mode === 'refuse') return sendJson(res, 402, { error: 'no credit' });
    if (self.mode === 'fail') return sendJson(res, 503, { error: 'down' });
    if (self.mode === 'deny-body') return sendJson(res, 200, { authorized: false });
    return sendJson(res, 200, { authorized: true });
  });
  Object.assign(self, http, {
    calls: () => http.requests.map((r) => ({ auth: r.headers.authorization, body: r.json() })),
  });
  return self;
}
