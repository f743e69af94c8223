// Admission of a conversation over an accepted socket: the partner's OAuth sign-in, the avatar's
// access check, allowed origins, the per-IP concurrency, the optional hello (validated), the limits that
// refuse or degrade before the start, a node with room — then the conversation opens. Every
// refusal is an `error` frame (or `bye`) followed by its close code.
import type WebSocket from 'ws';
import { CLOSE_CODES, MAX_CONVERSATIONS_PER_IP } from '@parla/shared/schemas/conversation';
import { ErrorCode, errorMessage } from '@parla/shared/errors';
import type { AppContext } from '../context';
import { AppError } from '../lib/errors';
import { clearStartFailure, recordStartFailure } from '../modules/avatars/avatars.repository';
import { failureWords } from '../modules/brain/brain-test';
import { countOpenFromIp } from '../modules/conversations/conversations.repository';
import type { AccessRequest, ResolvedAvatar } from './avatar';
import { ClientChannel } from './conversation/client-channel';
import { clientInfo, readFirstFrame } from './conversation/client-info';
import { Conversation, type ConversationDeps } from './conversation/conversation';
import type { RuntimeHooks } from './hooks';
import type { NodeRegistry } from './nodes/registry';
import { useGrant } from './oauth';

export const OAUTH_REQUIRED_MESSAGE = 'Please sign in with the partner before starting the conversation.';
export const ORIGIN_REFUSED_MESSAGE = 'This page may not open conversations with this avatar.';
export const ENGINE_START_FAILED_MESSAGE = 'The avatar could not start the conversation. Please try again later.';

export interface AdmissionDeps {
  ctx: AppContext;
  hooks: () => RuntimeHooks;
  registry: Pick<NodeRegistry, 'pick'>;
  conversation: ConversationDeps;
  /** The process is shutting down: a new conversation is sent to reconnect (elsewhere). */
  closing(): boolean;
  /** The conversation is open and listed by the runtime. */
  opened(c: Conversation): void;
  /** It could not start: the runtime forgets it. */
  failed(c: Conversation): void;
}

/** The close code of an access refusal. */
function accessCloseCode(err: AppError): number {
  if (err.httpStatus === 404) return CLOSE_CODES.roomNotFound;
  if (err.code === ErrorCode.InvalidToken) return CLOSE_CODES.invalidToken;
  if (err.httpStatus === 401 || err.httpStatus === 403) return CLOSE_CODES.authenticationFailed;
  return CLOSE_CODES.invalidParams;
}

export class Admission {
  /** Conversations being opened here, per IP (not yet in the records). */
  private readonly opening = new Map<string, number>();

  constructor(private readonly d: AdmissionDeps) {}

  async accept(socket: WebSocket, req: AccessRequest, firstFrame: Promise<string | null>): Promise<void> {
    const { ctx } = this.d;
    const hooks = this.d.hooks();
    const refuse = (errorCode: ErrorCode, closeCode: number, message?: string, extra: Record<string, string> = {}) => {
      if (socket.readyState === 1)
        socket.send(JSON.stringify({ type: 'error', code: errorCode, message: message ?? errorMessage(errorCode), ...extra }));
      socket.close(closeCode);
    };
    const goElsewhere = () => {
      if (socket.readyState === 1) socket.send(JSON.stringify({ type: 'bye', reason: 'server' }));
      socket.close(CLOSE_CODES.serverClosing);
    };
    if (this.d.closing()) return goElsewhere();
    // OAuth first: a refused conversation must not use up a single-use access token.
    const oauth = await hooks.oauthAppOf(ctx, req.avatarId);
    const grant = oauth ? await useGrant(ctx, req.avatarId, req.query.oauthGrant) : null;
    if (oauth && !grant) {
      return refuse(ErrorCode.AuthenticationFailed, CLOSE_CODES.authenticationFailed, OAUTH_REQUIRED_MESSAGE, {
        signInUrl: `/api/oauth/start/${encodeURIComponent(req.avatarId)}`,
      });
    }
    let avatar: ResolvedAvatar;
    try {
      avatar = await hooks.resolveAvatar(ctx, req);
      // A verified OAuth identity keys memory when no signed access token named the user (decision 624).
      if (!avatar.verifiedUserId && grant?.verifiedSubject) avatar = { ...avatar, verifiedUserId: grant.verifiedSubject };
    } catch (err) {
      if (err instanceof AppError)
        return refuse(err.httpStatus === 404 ? ErrorCode.RoomNotFoundError : err.code, accessCloseCode(err), err.errors[0]);
      ctx.log.error({ err }, 'resolving an avatar failed');
      return refuse(ErrorCode.ServerError, CLOSE_CODES.serverError);
    }
    if (avatar.allowedOrigins && (!req.origin || !avatar.allowedOrigins.includes(req.origin))) {
      return refuse(ErrorCode.AuthenticationFailed, CLOSE_CODES.originRefused, ORIGIN_REFUSED_MESSAGE);
    }
    // Concurrency per IP: open records (every process) plus the ones opening here.
    const opening = this.opening.get(req.ip) ?? 0;
    if ((await countOpenFromIp(ctx.db, req.ip)) + opening >= MAX_CONVERSATIONS_PER_IP) {
      return refuse(ErrorCode.MaxConcurrencyPerIPReached, CLOSE_CODES.maxConcurrencyPerIP);
    }
    this.opening.set(req.ip, opening + 1);
    try {
      const first = readFirstFrame(await firstFrame);
      if ('refused' in first) return refuse(ErrorCode.InvalidOrMissingParams, CLOSE_CODES.invalidParams, first.refused);
      const { hello, pending } = first;
      const channel = new ClientChannel(socket, ctx.now);
      const conversation = new Conversation(this.d.conversation, avatar, clientInfo(hello, req.ip), channel, req.ip);
      const limits = await conversation.accounting.atStart();
      if (limits.refuse === 'usage') return refuse(ErrorCode.UsageLimitExceeded, CLOSE_CODES.usageLimitExceeded);
      if (limits.refuse === 'demo')
        return void (socket.send(JSON.stringify({ type: 'bye', reason: 'demo' })), socket.close(CLOSE_CODES.demoOver));
      if (this.d.closing()) return goElsewhere();
      const node = this.d.registry.pick();
      if (!node) return refuse(ErrorCode.MaxConcurrencyReached, CLOSE_CODES.maxConcurrencyReached);
      this.d.opened(conversation);
      try {
        await conversation.open(node, limits.echo);
      } catch (err) {
        this.d.failed(conversation);
        node.conversations.delete(conversation.id);
        ctx.log.warn({ err: err instanceof Error ? err.message : String(err), avatarId: avatar.id }, 'the engine could not start');
        // The visitor hears "could not start"; the owner reads why on the avatar's card.
        const why = failureWords(err) ?? `${err instanceof Error ? err.message : String(err)}.`;
        void recordStartFailure(ctx.db, avatar.id, why, ctx.now()).catch(() => {});
        return refuse(ErrorCode.RequestFail, CLOSE_CODES.requestFail, ENGINE_START_FAILED_MESSAGE);
      }
      void clearStartFailure(ctx.db, avatar.id).catch(() => {});
      conversation.listen(pending);
    } finally {
      const n = (this.opening.get(req.ip) ?? 1) - 1;
      if (n <= 0) this.opening.delete(req.ip);
      else this.opening.set(req.ip, n);
    }
  }
}
