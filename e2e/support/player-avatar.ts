// Avatars for the player's end-user journeys: saved through the API, with the admin-proxy
// session when a field only an administrator may set is needed (idleTimeout, Advanced tab).
import { expect, type APIRequestContext } from '@playwright/test';
import { createCustomer, E2E_ADMIN, E2E_APP_KEY } from './accounts';
import { apiLogin, saveAvatar, type SavedAvatar } from './conversation';

export async function adminProxyAuth(request: APIRequestContext, email: string): Promise<string> {
  const admin = await apiLogin(request, E2E_ADMIN.email, E2E_ADMIN.password);
  const adminAuth = { authorization: `Bearer ${E2E_APP_KEY} ${admin}` };
  const list = (await (await request.get('/api/admin/customers', { headers: adminAuth })).json()) as {
    customers: { id: string; email: string }[];
  };
  const userId = list.customers.find((c) => c.email === email)!.id;
  const proxy = await request.post('/api/admin/impersonate', { headers: adminAuth, data: { userId } });
  expect(proxy.ok(), await proxy.text()).toBe(true);
  const { adminSessionId } = (await proxy.json()) as { adminSessionId: string };
  const login = await request.post('/api/login', { headers: { authorization: `Bearer ${E2E_APP_KEY}` }, data: { email, adminSessionId } });
  expect(login.ok(), await login.text()).toBe(true);
  return `Bearer ${E2E_APP_KEY} ${(await login.json()).sessionId as string}`;
}

/** A new customer's echo avatar with an image appearance; `idleTimeout` set through the admin proxy,
 *  `language` its spoken language, `voice` its Default TTS voice. */
export async function echoAvatar(
  request: APIRequestContext,
  opts: { name: string; idleTimeout?: number; type?: string; language?: string; voice?: string },
): Promise<SavedAvatar> {
  const customer = await createCustomer(request, opts.name.toLowerCase().replace(/\W+/g, ''));
  const auth = await adminProxyAuth(request, customer.email);
  const appearance = ((await (await request.get('/api/catalogue/avatars')).json()).avatars as { id: string; type: string }[]).find(
    (a) => a.type === (opts.type ?? 'image'),
  )!;
  const created = await saveAvatar(request, auth, { name: opts.name, dhType: appearance.type, appearanceId: appearance.id });
  if (opts.idleTimeout === undefined && opts.language === undefined && opts.voice === undefined) return created;
  const pipeline = {
    ...(opts.language ? { stt: { provider: 'default', languages: opts.language } } : {}),
    ...(opts.voice ? { tts: { provider: 'default', voice_id: opts.voice } } : {}),
  };
  return saveAvatar(request, auth, {
    id: created.id,
    updated: created.updated,
    name: opts.name,
    dhType: appearance.type,
    appearanceId: appearance.id,
    ...(opts.idleTimeout === undefined ? {} : { idleTimeout: opts.idleTimeout }),
    // The language it speaks (the first STT language): one without an embedded voice leaves the
    // speaking to the browser (decision 122).
    // `voice` an embedded voice picked in the Brain tab (it speaks even where a speech server is set).
    ...(Object.keys(pipeline).length ? { customData: { agent_pipeline_config: pipeline } } : {}),
  });
}
