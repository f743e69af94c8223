// OAuth configs: the client secret is encrypted at rest and only ever returned masked; a masked
// value sent back keeps the stored secret. The callback URL is the product's, not the customer's.
import type { Selectable } from 'kysely';
import { OAUTH_APPS_PER_ACCOUNT } from '@parla/shared/limits';
import {
  OAUTH_PARTNER_DEFAULTS,
  oauthCallbackUrl,
  type OAuthApp,
  type OAuthPartner,
  type SaveOauthAppResponse,
  type saveOauthAppRequest,
} from '@parla/shared/schemas/oauth';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { OauthAppsTable } from '../../db/tables/oauth';
import { AppError } from '../../lib/errors';
import { isMasked, mask, MASK_PREFIX } from '../../lib/secrets';
import * as repo from './oauth-configs.repository';

type SaveInput = z.infer<typeof saveOauthAppRequest>;

export const OAUTH_LIMIT_MESSAGE = `An account can have at most ${OAUTH_APPS_PER_ACCOUNT} OAuth configs. Delete one you no longer use.`;
export const SECRET_MASK_ON_CREATE = 'Client Secret is required';

export function callbackUrl(ctx: AppContext, appId: number): string {
  return oauthCallbackUrl(ctx.config.PUBLIC_URL, appId);
}

function toApi(ctx: AppContext, row: Selectable<OauthAppsTable>): OAuthApp {
  let secret = '';
  try {
    secret = ctx.secrets.decrypt(row.client_secret_enc);
  } catch (err) {
    // A secret written under another SECRET_KEY cannot be read: shown as masked-empty.
    ctx.log.warn({ appId: row.id, err: (err as Error).message }, 'OAuth client secret cannot be decrypted');
  }
  return {
    appId: row.id,
    appName: row.app_name,
    partner: row.partner as OAuthPartner,
    clientId: row.client_id,
    clientSecret: mask(secret) || MASK_PREFIX,
    oauthURL: row.oauth_url,
    tokenIssueURL: row.token_issue_url,
    issuer: row.issuer ?? null,
    jwksURL: row.jwks_url ?? null,
    callbackURL: callbackUrl(ctx, row.id),
    created: new Date(row.created_at).toISOString(),
    updated: new Date(row.updated_at).toISOString(),
  };
}

export async function listApps(ctx: AppContext, ownerId: string): Promise<{ oauthApps: OAuthApp[] }> {
  const rows = await repo.listApps(ctx.db, ownerId);
  return { oauthApps: rows.map((r) => toApi(ctx, r)) };
}

export async function saveApp(ctx: AppContext, ownerId: string, input: SaveInput): Promise<SaveOauthAppResponse> {
  const now = ctx.now();
  const fields = {
    app_name: input.appName,
    partner: input.partner,
    client_id: input.clientId,
    oauth_url: input.oauthURL,
    token_issue_url: input.tokenIssueURL,
    ...(input.issuer !== undefined ? { issuer: input.issuer || null } : {}),
    ...(input.jwksURL !== undefined ? { jwks_url: input.jwksURL || null } : {}),
  };
  const row = await ctx.db.transaction().execute(async (trx) => {
    if (input.appId === undefined) {
      // A masked value can only mean "keep the stored one", and a new config has none.
      if (isMasked(input.clientSecret)) throw AppError.invalid(SECRET_MASK_ON_CREATE);
      if ((await repo.countApps(trx, ownerId)) >= OAUTH_APPS_PER_ACCOUNT) throw AppError.invalid(OAUTH_LIMIT_MESSAGE, 'LIMIT_REACHED');
      return repo.insertApp(trx, {
        ...fields,
        owner_id: ownerId,
        client_secret_enc: ctx.secrets.encrypt(input.clientSecret),
        created_at: now,
        updated_at: now,
      });
    }
    const changes = {
      ...fields,
      ...(isMasked(input.clientSecret) ? {} : { client_secret_enc: ctx.secrets.encrypt(input.clientSecret) }),
      updated_at: now,
    };
    const updated = await repo.updateApp(trx, ownerId, input.appId, changes);
    if (!updated) throw AppError.notFound('OAuth config');
    return updated;
  });
  const app = toApi(ctx, row);
  return { status: 'OK', appId: app.appId, updated: app.updated, oauthApp: app };
}

export async function deleteApp(ctx: AppContext, ownerId: string, appId: number): Promise<{ status: 'OK'; appId: number }> {
  if (!(await repo.deleteApp(ctx.db, ownerId, appId))) throw AppError.notFound('OAuth config');
  return { status: 'OK', appId };
}

/** The decrypted config of an owner's app, for the conversation runtime's sign-in flow. */
export async function appForSignIn(ctx: AppContext, ownerId: string, appId: number) {
  const row = await repo.findApp(ctx.db, ownerId, appId);
  if (!row) return null;
  return {
    appId: row.id,
    partner: row.partner as OAuthPartner,
    clientId: row.client_id,
    clientSecret: ctx.secrets.decrypt(row.client_secret_enc),
    oauthURL: row.oauth_url,
    tokenIssueURL: row.token_issue_url,
    callbackURL: callbackUrl(ctx, row.id),
    ...identityKeys(row),
  };
}

/** The issuer and key set of a config's id_tokens: its own, else the partner's well-known ones
 *  when it signs in at the partner's well-known address (decision 624). */
function identityKeys(row: Selectable<OauthAppsTable>): { issuer: string | null; jwksURL: string | null } {
  const known = OAUTH_PARTNER_DEFAULTS[row.partner as OAuthPartner];
  const atPartner = known && new URL(row.oauth_url).origin === new URL(known.oauthURL).origin;
  return { issuer: row.issuer ?? (atPartner ? known.issuer : null), jwksURL: row.jwks_url ?? (atPartner ? known.jwksURL : null) };
}
