// The runtime's endpoints: WS /ws/conversation (end users), WS /ws/node (pipeline nodes), the
// REST endpoint's callback, the online-user and VPS lists of administrators and customers, and
// per-avatar latency.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type WebSocket from 'ws';
import { z } from 'zod';
import { ErrorCode, VPS_DELETE_CAUSES } from '@parla/shared/errors';
import {
  avatarLatencyRequest,
  CONVERSATION_MAX_TEXT,
  delVpsRequest,
  getOnlineUserRequest,
  getVpsRequest,
  modeGetRequest,
  onlineUsersRequest,
} from '@parla/shared/schemas/conversation';
import { NODE_HEARTBEAT_MS, parseNodeMessage, type ServerToNode } from '@parla/shared/schemas/node';
import type { AppContext } from '../context';
import { releaseUpgrade } from './socket-errors';
import { AppError } from '../lib/errors';
import { safeEqual } from '../lib/tokens';
import { find as findAvatar, isAvatarId } from '../modules/avatars/avatars.repository';
import { requireUser } from '../plugins/auth';
import { latencyByAvatar, latencySummary } from './latency';
import { NodeRegistry } from './nodes/registry';
import { RemoteNode } from './nodes/remote-node';
import { onlineUserDetail, onlineUsers } from './online-users';
import { finishSignIn, startUrl } from './oauth';
import type { Runtime } from './runtime';

/** The first client frame (hello) is awaited this long before the conversation starts anyway. */
const HELLO_WAIT_MS = 1000;

function firstFrame(socket: WebSocket): Promise<string | null> {
  return new Promise((resolve) => {
    // Each path takes the other two away: an open conversation keeps none of them (issue 37).
    const timer = setTimeout(() => {
      socket.off('message', onMessage).off('close', onClose);
      resolve(null);
    }, HELLO_WAIT_MS);
    const onMessage = (data: WebSocket.RawData, isBinary: boolean) => {
      clearTimeout(timer);
      socket.off('close', onClose);
      resolve(isBinary ? null : String(data));
    };
    const onClose = () => {
      clearTimeout(timer);
      socket.off('message', onMessage);
      resolve(null);
    };
    socket.once('message', onMessage);
    socket.once('close', onClose);
  });
}

function queryOf(request: FastifyRequest): Record<string, string> {
  const q = (request.query ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(q)
      .filter(([, v]) => typeof v === 'string')
      .map(([k, v]) => [k, (v as string).slice(0, 4000)]),
  );
}

export function runtimeRoutes(ctx: AppContext, runtime: Runtime) {
  // A node's row could not be written (the database restarting, or closing at shutdown): the
  // node keeps working; the failure is logged, never left as an unhandled rejection.
  const nodeStoreFailed = (what: string) => (err: unknown) =>
    ctx.log.warn({ err: err instanceof Error ? err.message : String(err) }, `${what} failed`);
  return async function plugin(app: FastifyInstance): Promise<void> {
    const r = app.withTypeProvider<ZodTypeProvider>();

    app.get('/ws/conversation', { websocket: true, config: { auth: 'none' } }, (socket, request) => {
      const query = queryOf(request);
      const frame = firstFrame(socket);
      const origin = typeof request.headers.origin === 'string' ? request.headers.origin : null;
      const ip = request.ip;
      releaseUpgrade(socket, request, ctx.log);
      void runtime
        .accept(
          socket,
          {
            avatarId: query.avatarId ?? '',
            token: query.token ?? null,
            query,
            origin,
            ip,
          },
          frame,
        )
        .catch((err: unknown) => {
          ctx.log.error({ err }, 'conversation failed');
          socket.close(4002);
        });
    });

    app.get(
      '/ws/node',
      {
        websocket: true,
        config: { auth: 'none' },
        onRequest: async (request) => {
          const secret = ctx.config.NODE_SECRET;
          const m = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
          if (!secret || !m || !safeEqual(m[1]!, secret)) throw AppError.unauthenticated('A valid node secret is required.');
        },
      },
      (socket, request) => {
        let node: RemoteNode | null = null;
        const closeTimer = setTimeout(() => {
          if (!node) socket.close(4007, 'register first');
        }, 10_000);
        socket.on('message', (data) => {
          // Validated, not cast: a malformed frame is answered `invalid` and dropped.
          const parsed = parseNodeMessage(String(data));
          if (!parsed.ok) {
            if (socket.readyState === 1) socket.send(JSON.stringify({ type: 'invalid', message: parsed.error } satisfies ServerToNode));
            return;
          }
          const msg = parsed.message;
          if (!node) {
            if (msg.type !== 'register') return;
            clearTimeout(closeTimer);
            const n = new RemoteNode(
              NodeRegistry.newId(),
              msg.name.slice(0, 100),
              Math.min(msg.capacity, 10_000),
              socket,
              ctx.now().getTime(),
            );
            node = n;
            void runtime.registry
              .add(n, {
                address: msg.address.slice(0, 200),
                privateIp: msg.privateIp.slice(0, 100),
                remoteIp: request.ip,
                webSocket: `${request.protocol === 'https' ? 'wss' : 'ws'}://${request.headers.host ?? ''}/ws/node`,
              })
              .then(() => n.send({ type: 'registered', nodeId: n.id, heartbeatMs: NODE_HEARTBEAT_MS }))
              .catch(nodeStoreFailed('registering a pipeline node'));
            return;
          }
          if (msg.type === 'ping') runtime.registry.ping(node).catch(nodeStoreFailed('recording a node ping'));
          else node.handle(msg);
        });
        socket.on('close', () => {
          clearTimeout(closeTimer);
          if (node) runtime.registry.lost(node, 'socket closed').catch(nodeStoreFailed('recording a lost node'));
        });
      },
    );

    r.post(
      '/api/conversation/callback/:sessionId',
      {
        config: { auth: 'none' },
        schema: {
          params: z.object({ sessionId: z.string().max(100) }),
          querystring: z.object({ token: z.string().max(200).optional() }),
          body: z.object({
            message: z
              .string({ error: 'message is required' })
              .trim()
              .min(1, 'message is required')
              .max(CONVERSATION_MAX_TEXT, 'message is too long'),
          }),
        },
      },
      async (request) => {
        // Whichever process holds the conversation says it (decision 630).
        if (!(await runtime.callback(request.params.sessionId, request.query.token, request.body.message)))
          throw AppError.notFound('Conversation');
        return { status: 'OK' };
      },
    );

    r.get(
      '/api/oauth/start/:avatarId',
      {
        config: { auth: 'none' },
        schema: { params: z.object({ avatarId: z.string().max(100) }), querystring: z.object({ back: z.string().max(2000).optional() }) },
      },
      async (request, reply) => {
        const app = await runtime.hooks.oauthAppOf(ctx, request.params.avatarId);
        if (!app) throw AppError.notFound('Avatar');
        const { url, setCookie } = await startUrl(ctx, { avatarId: request.params.avatarId, ...app }, request.query.back ?? '');
        return reply.header('set-cookie', setCookie).redirect(url, 302);
      },
    );

    r.get(
      '/api/oauth/callback/:appId',
      {
        config: { auth: 'none' },
        schema: {
          params: z.object({ appId: z.coerce.number().int().positive() }),
          querystring: z.object({
            code: z.string().max(4000).optional(),
            state: z.string().max(4000).optional(),
            error: z.string().max(200).optional(),
          }),
        },
      },
      async (request, reply) => {
        const { code, state, error } = request.query;
        if (error) throw AppError.unauthenticated('User denied');
        if (!code || !state) throw AppError.invalid('The partner did not return a sign-in code.');
        const done = await finishSignIn(ctx, request.params.appId, code, state, request.headers.cookie);
        return reply.header('set-cookie', done.clearCookie).redirect(done.location, 302);
      },
    );

    r.post('/api/list_online_users', { config: { auth: 'admin' }, schema: { body: onlineUsersRequest } }, async (request) => ({
      status: 'OK',
      ...(await onlineUsers(ctx.db, undefined, request.body)),
    }));

    r.post('/api/get_online_user', { config: { auth: 'admin' }, schema: { body: getOnlineUserRequest } }, async (request) => {
      const detail = await onlineUserDetail(ctx.db, request.body.sessionId);
      if (!detail) throw AppError.notFound('Online user');
      return { status: 'OK', userDetail: detail, errors: [] };
    });

    r.post('/api/list_my_online_users', { schema: { body: onlineUsersRequest } }, async (request) => ({
      status: 'OK',
      ...(await onlineUsers(ctx.db, requireUser(request).id, request.body)),
    }));

    r.post('/api/get_my_online_user', { schema: { body: getOnlineUserRequest } }, async (request) => {
      const detail = await onlineUserDetail(ctx.db, request.body.sessionId, requireUser(request).id);
      if (!detail) throw AppError.notFound('Online user');
      return { status: 'OK', userDetail: detail, errors: [] };
    });

    r.get('/api/list_vps', { config: { auth: 'admin' } }, async () => ({ status: 'OK', vpsList: await runtime.registry.rows() }));

    r.post('/api/get_vps', { config: { auth: 'admin' }, schema: { body: getVpsRequest } }, async (request) => {
      const vps = await runtime.registry.row(request.body.vpsId);
      if (!vps) throw AppError.notFound('VPS');
      return { status: 'OK', vpsDetail: vps, errors: [] };
    });

    r.post('/api/del_vps', { config: { auth: 'admin' }, schema: { body: delVpsRequest } }, async (request) => {
      const id = request.body.vpsId;
      const vps = await runtime.registry.row(id);
      if (!vps) throw new AppError(ErrorCode.InvalidOrMissingParams, 404, [VPS_DELETE_CAUSES.invalid], { failReason: 'INVALID_VPS' });
      if (vps.inProcess && (runtime.registry.get(id) || vps.status !== 'OFFLINE')) {
        throw new AppError(ErrorCode.InvalidOrMissingParams, 400, [VPS_DELETE_CAUSES.invalid, "The server's own node cannot be deleted."], {
          failReason: 'INVALID_VPS',
        });
      }
      const live = runtime.registry.get(id);
      if (!live && (await runtime.disconnectElsewhere(id))) {
        // Connected to another live process: that process disconnects it (decision 630).
        await runtime.registry.forget(id);
        return { status: 'OK', vpsId: id };
      }
      if (!live) {
        // Already offline: the record goes, and the answer says so.
        await runtime.registry.forget(id);
        throw new AppError(ErrorCode.InvalidOrMissingParams, 409, [VPS_DELETE_CAUSES.alreadyDisconnected], {
          failReason: 'ALREADY_DISCONNECTED',
        });
      }
      live.disconnect('deleted by an administrator');
      await runtime.registry.lost(live, 'deleted');
      await runtime.registry.forget(id);
      return { status: 'OK', vpsId: id };
    });

    r.post('/api/list_my_latency', { schema: { body: modeGetRequest } }, async (request) => {
      await runtime.turns.flush();
      return { status: 'OK', avatars: await latencyByAvatar(ctx.db, requireUser(request).id, ctx.now()) };
    });

    r.post('/api/avatar_latency', { schema: { body: avatarLatencyRequest } }, async (request) => {
      await runtime.turns.flush();
      const ownerId = requireUser(request).id;
      const { agentId } = request.body;
      const latency = await latencySummary(ctx.db, ownerId, agentId);
      // Turns are the owner's own (a deleted avatar keeps them); otherwise the avatar must be theirs:
      // another account's avatar is not found, as everywhere.
      if (latency.turns === 0 && !(isAvatarId(agentId) && (await findAvatar(ctx.db, ownerId, agentId)))) throw AppError.notFound('Avatar');
      return { status: 'OK', agentId, latency };
    });
  };
}
