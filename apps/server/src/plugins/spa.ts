// Serves the built portal under /react/ (index.html for every deep link) and redirects / there.
// Hashed assets are cached for a year; index.html never is. The portal may be framed only by
// itself, except the chat widget (/react/chatWidget/…), which exists to be embedded: the avatar's
// own page inside it keeps the avatar's Allowed websites as frame-ancestors (decision 205).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const here = dirname(fileURLToPath(import.meta.url));
export const WEB_DIST = resolve(here, '../../../web/dist');

const CHAT_WIDGET = /^\/react\/chatWidget\/[^/?#]+\/?(?:[?#]|$)/;

/** The portal's Content-Security-Policy (decision 412). Scripts only from the portal's own files:
 *  the built index.html has no inline script (spa.routes.test.ts checks). Styles inline too: MUI's
 *  emotion writes <style> elements at run time and index.html holds one. No default-src: the
 *  portal shows customers' media and frames the player, which have their own rules. */
const PORTAL_CSP = "script-src 'self'; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'self'; form-action 'self'";

const NOT_BUILT =
  '<!doctype html><title>Parla</title><p>The portal has not been built yet. Run <code>npm run build</code> (npm start does it for you).</p>';

export async function registerSpa(app: FastifyInstance, distDir = WEB_DIST): Promise<void> {
  app.get('/', { config: { auth: 'none' } }, (_req, reply) => reply.redirect('/react/'));

  const indexFile = join(distDir, 'index.html');
  const index = () => (existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : null);
  let cached: string | null = null;

  const sendIndex = (req: FastifyRequest, reply: FastifyReply) => {
    cached ??= index();
    reply.header('cache-control', 'no-store');
    // The chat widget exists to be framed: the avatar's own page inside it keeps its rules.
    if (CHAT_WIDGET.test(req.url)) reply.header('content-security-policy', PORTAL_CSP);
    else reply.header('x-frame-options', 'SAMEORIGIN').header('content-security-policy', `${PORTAL_CSP}; frame-ancestors 'self'`);
    if (!cached) return reply.status(503).type('text/html').send(NOT_BUILT);
    return reply.type('text/html').send(cached);
  };

  if (existsSync(join(distDir, 'assets'))) {
    await app.register(fastifyStatic, {
      root: join(distDir, 'assets'),
      prefix: '/react/assets/',
      decorateReply: false,
      immutable: true,
      maxAge: '365d',
      // The .br and .gz files written by the build (vite-plugin-compression2), chosen by Accept-Encoding.
      preCompressed: true,
    });
  }
  for (const file of ['favicon.svg', 'robots.txt']) {
    app.get(`/react/${file}`, { config: { auth: 'none' } }, (_req, reply) => {
      const path = join(distDir, file);
      if (!existsSync(path)) return reply.status(404).send();
      return reply
        .type(file.endsWith('.svg') ? 'image/svg+xml' : 'text/plain')
        .header('cache-control', 'public, max-age=86400')
        .send(readFileSync(path));
    });
  }
  app.get('/react', { config: { auth: 'none' } }, (_req, reply) => reply.redirect('/react/'));
  app.get('/react/', { config: { auth: 'none' } }, sendIndex);
  app.get('/react/*', { config: { auth: 'none' } }, sendIndex);
}
