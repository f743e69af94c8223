// Encryption keys (spec 4 §7): list, add (the private key answered once), delete.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addEncKeyRequest, delEncKeyRequest } from '@parla/shared/schemas/encryption-keys';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/auth';
import * as keys from './encryption-keys.service';

export function encryptionKeyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/enc/list', { config: { auth: 'user' } }, (request) => keys.listKeys(ctx, requireUser(request).id));

    app.post('/api/enc/add', { schema: { body: addEncKeyRequest }, config: { auth: 'user' } }, async (request, reply) => {
      // The private key is in this answer: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return keys.addKey(ctx, requireUser(request).id, request.body);
    });

    app.post('/api/enc/del', { schema: { body: delEncKeyRequest }, config: { auth: 'user' } }, async (request) => {
      await keys.deleteKey(ctx, requireUser(request).id, request.body.id);
      return { status: 'OK' };
    });
  };
}
