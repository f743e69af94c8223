// A fresh in-process server with its knowledge worker, and its knowledge API called as a customer
// (a JWT from /api/token/jwt): what the knowledge benches and aids load their corpora through.
import { startKnowledgeWorker } from '../apps/server/src/modules/knowledge/knowledge.worker';
import { startApiServer } from './api-support';

export async function knowledgeApi() {
  const bench = await startApiServer(0);
  const worker = startKnowledgeWorker(bench.ctx, { pollMs: 60_000 });
  const jwt = (await (await fetch(`${bench.url}/api/token/jwt`, { headers: { authorization: bench.authorization } })).json()) as {
    jwtToken: string;
  };
  /** One call of the knowledge API; an answer other than 2xx throws with its body. */
  const kb = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${bench.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${jwt.jwtToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as unknown;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json as never;
  };
  return { bench, worker, kb };
}
