// Serves the built player (apps/player/dist): the avatar page at /avatar/{avatarId} — what the
// access link, the Connect button, the chat widget and customers' iframes open — and the
// editor's preview at /avatar/preview?appearanceId=... (&avatarId= for a saved avatar). The page must load inside third-party
// iframes, so it sends no x-frame-options; an avatar with Allowed websites (decision 205) may be
// framed only by those sites and the portal itself (frame-ancestors). The id follows the one rule
// (schemas/avatar-id.ts, decision 206): anything else, or an avatar that does not exist, is a 404
// page that no site may frame (fail closed: the page never loads an avatar it did not check).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isAvatarId } from '@parla/shared/schemas/avatar-id';
import type { AppContext } from '../../context';
import { allowedOriginsOf } from '../avatars/avatars.public';

const here = dirname(fileURLToPath(import.meta.url));
export const PLAYER_DIST = resolve(here, '../../../../player/dist');
export const PLAYER_ASSETS_PREFIX = '/player/assets/';

const NOT_BUILT =
  '<!doctype html><title>Parla</title><p>The avatar player has not been built yet. Run <code>npm run build</code> (npm start does it for you).</p>';

/** Embeddable anywhere unless the avatar lists its websites: no x-frame-options, and no
 *  frame-ancestors by default (whose `*` would still refuse hosts that are not http(s), such as a
 *  local file or a sandboxed about:blank page). */
/** Scripts only from the player's own files (decision 412), plus what its parts truly load: the
 *  VAD's and meshopt's WebAssembly ('wasm-unsafe-eval': compiling WebAssembly, not eval), the audio
 *  worklets and workers made from blob: URLs (the third-party microphone, ElevenLabs' SDK, Agora's
 *  SDK). ElevenLabs' resampling worklet is bundled with the player (its SDK would otherwise fetch
 *  it from a CDN), so no other origin is allowed. */
const SCRIPT_SRC = "script-src 'self' 'wasm-unsafe-eval' blob:";
const CSP = `${SCRIPT_SRC}; object-src 'none'; base-uri 'self'`;
const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': CSP,
  'permissions-policy': 'microphone=(self), autoplay=(self), fullscreen=(self)',
};

/** Who may frame a page: any site, the listed ones (with the portal), or none. */
type Framing = 'any' | 'none' | string[];

export function playerRoutes(ctx: AppContext, distDir = PLAYER_DIST): FastifyPluginAsyncZod {
  /** The sites that may frame this avatar's page: 'any', a list, or 'none' when there is no such
   *  avatar (an id breaking the rule is never looked up). */
  const framers = async (avatarId: string): Promise<Framing> => {
    if (!isAvatarId(avatarId)) return 'none';
    const origins = await allowedOriginsOf(ctx, avatarId);
    if (!origins) return 'none';
    return origins.length ? origins : 'any';
  };

  return async (app) => {
    const indexFile = join(distDir, 'index.html');
    // Re-read when a rebuild replaced the page (its asset names change with every build).
    let cached: { mtime: number; html: string } | null = null;
    const page = (): string | null => {
      if (!existsSync(indexFile)) return null;
      const mtime = statSync(indexFile).mtimeMs;
      if (cached?.mtime !== mtime) cached = { mtime, html: readFileSync(indexFile, 'utf8') };
      return cached.html;
    };
    const sendPage = (reply: FastifyReply, framing: Framing = 'any') => {
      const html = page();
      reply.headers(PAGE_HEADERS);
      if (framing === 'none') reply.header('content-security-policy', `${CSP}; frame-ancestors 'none'`);
      else if (framing !== 'any') reply.header('content-security-policy', `${CSP}; frame-ancestors 'self' ${framing.join(' ')}`);
      if (!html) return reply.status(503).type('text/html').send(NOT_BUILT);
      // The player shows its own "not available" screen for an avatar that is not found.
      return reply
        .status(framing === 'none' ? 404 : 200)
        .type('text/html; charset=utf-8')
        .send(html);
    };

    // The editor's preview of a saved avatar (?avatarId=, issue 36 item 6) shows that avatar's
    // settings: it may be framed only where the avatar's own page may be.
    app.get(
      '/avatar/preview',
      { config: { auth: 'none' } },
      async (req: FastifyRequest<{ Querystring: { avatarId?: unknown } }>, reply) => {
        const avatarId = req.query.avatarId;
        if (avatarId === undefined) return sendPage(reply);
        return sendPage(reply, typeof avatarId === 'string' ? await framers(avatarId) : 'none');
      },
    );
    app.get('/avatar/:avatarId', { config: { auth: 'none' } }, async (req: FastifyRequest<{ Params: { avatarId: string } }>, reply) =>
      sendPage(reply, await framers(req.params.avatarId)),
    );

    if (existsSync(join(distDir, 'assets'))) {
      await app.register(fastifyStatic, {
        root: join(distDir, 'assets'),
        prefix: PLAYER_ASSETS_PREFIX,
        decorateReply: false,
        immutable: true,
        maxAge: '365d',
        // The .br and .gz files written by the build (vite-plugin-compression2), chosen by Accept-Encoding.
        preCompressed: true,
      });
    }
  };
}
