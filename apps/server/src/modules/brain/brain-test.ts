// The Brain tab's Test (issue 39 item 3): the brain as the editor holds it (the save's payload,
// merged with what is stored exactly as a save would, nothing written) is built by the runtime's
// own mapper and engine factory, opened as a conversation would open it, asked one question, and
// closed. Every request goes through the guarded client the conversations use, so what the test
// sees is what a visitor would get; the outcome is said in the customer's words.
import { randomUUID } from 'node:crypto';
import {
  BRAIN_TEST_MESSAGES as M,
  BRAIN_TEST_QUESTION,
  BRAIN_TEST_TIMEOUT_MS,
  type BrainTestResponse,
} from '@parla/shared/schemas/brain-test';
import type { SaveAvatarRequest } from '@parla/shared/schemas/avatar';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { OutboundFailed, OutboundRefused } from '../../lib/outbound';
import { AvatarConfigMapper } from '../../runtime/avatar-config';
import { createEngine, SpeechFailed, speechOf } from '../../runtime/engines';
import { ProviderError } from '../../runtime/engines/provider-error';
import { withSettings } from '../../runtime/engine-settings';
import type { Engine, EngineConfig, EngineDeps, EngineHost } from '../../runtime/types';
import * as avatarsRepo from '../avatars/avatars.repository';
import { avatarAfterSave, type Actor } from '../avatars/avatars.service';
import { testHearing } from './brain-test-hearing';

const REPLY_CHARS = 500;

/** A host that only listens: the test speaks to no one (engines that push by themselves are ignored). */
function quietHost(): EngineHost {
  return {
    beginTurn: (turnId) => turnId ?? randomUUID(),
    emit: () => {},
    endTurn: () => {},
    userUtterance: () => {},
    transcript: () => {},
    speaking: () => false,
    interrupt: () => {},
  };
}

class TestTimeout extends Error {}

/** The conversation a test opens: no visitor, no callback. */
const testConversation = () => ({
  sessionId: randomUUID(),
  userId: 'brain-test',
  userName: 'Brain test',
  locale: 'en-US',
  callbackUrl: 'about:blank',
});

/** The owner's words for a provider's failure (a test's, or a conversation's that could not
 *  start: the avatar's card shows it); null when the error is none of the known kinds. */
export function failureWords(err: unknown): string | null {
  if (err instanceof TestTimeout) return M.timeout;
  if (err instanceof OutboundRefused) return M.refused(err.reason);
  if (err instanceof SpeechFailed) return M.voiceFailed(err.message);
  if (err instanceof ProviderError && err.status !== undefined) {
    if (err.status === 401 || err.status === 403) return M.keyRefused(err.status);
    if (err.status === 404) return M.notFound;
    const excerpt = err.message.replace(/^[^:]*: (HTTP \d+: ?)?/, '').slice(0, 160);
    return M.rejected(err.status, excerpt === `HTTP ${err.status}` ? '' : excerpt);
  }
  if (err instanceof OutboundFailed) return M.unreachable(err.message);
  const cause = err instanceof Error && err.cause instanceof OutboundRefused ? err.cause : null;
  return cause ? M.refused(cause.reason) : null;
}

/** The customer's words for what went wrong in a test. */
export function testFailureMessage(err: unknown): string {
  return failureWords(err) ?? M.failed(err instanceof Error ? err.message : String(err));
}

async function askOnce(engine: Engine, signal: AbortSignal): Promise<{ reply: string; spoken: boolean }> {
  await engine.open?.(testConversation());
  let reply = '';
  let spoken = false;
  for await (const event of engine.turn({ turnId: randomUUID(), text: BRAIN_TEST_QUESTION, history: [], context: [], signal })) {
    if (event.type === 'delta') reply += event.text;
    if (event.type === 'audio') spoken = true;
    if (signal.aborted) break;
  }
  return { reply, spoken };
}

export async function testBrain(
  ctx: AppContext,
  deps: EngineDeps,
  actor: Actor,
  p: SaveAvatarRequest & { id: string },
): Promise<BrainTestResponse> {
  const stored = avatarsRepo.isAvatarId(p.id) ? await avatarsRepo.find(ctx.db, actor.id, p.id) : undefined;
  if (!stored) throw AppError.notFound('Avatar');
  const row = await avatarAfterSave(ctx, actor, p, stored);
  const config = withSettings(await new AvatarConfigMapper(ctx).engine(row), row);
  const started = Date.now();
  // The server's speech recognition, when the avatar has one, is tested beside the brain.
  const stt = config.kind === 'unavailable' ? null : (speechOf(config)?.stt ?? null);
  const hearing = stt ? testHearing(deps, stt, failureWords) : Promise.resolve(null);
  const answer = await askBrain(config, deps);
  const heard = await hearing;
  return {
    ...answer,
    ok: answer.ok && (heard?.ok ?? true),
    brainOk: answer.ok,
    reply: answer.reply === null ? null : answer.reply.slice(0, REPLY_CHARS),
    ms: Date.now() - started,
    hearing: heard,
  };
}

type Answer = Pick<BrainTestResponse, 'ok' | 'message' | 'reply' | 'spoken'>;

/** The brain asked its one question (a third-party agent opened). */
async function askBrain(config: EngineConfig, deps: EngineDeps): Promise<Answer> {
  const done = (ok: boolean, message: string, reply: string | null = null, spoken: boolean | null = null): Answer => ({
    ok,
    message,
    reply,
    spoken,
  });
  if (config.kind === 'echo') return done(true, M.echo);
  if (config.kind === 'unavailable') return done(false, config.message);

  const controller = new AbortController();
  const engine = createEngine(
    config,
    { ...deps, runTool: async () => JSON.stringify({ error: 'functions are not run by a test' }) },
    quietHost(),
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_r, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new TestTimeout());
    }, BRAIN_TEST_TIMEOUT_MS);
  });
  const hasVoice = 'speech' in config && !!config.speech;
  try {
    // A third-party agent talks to the visitor's browser itself: opening (the provider handing out
    // a session) is the whole of what the server does, so it is what is tested.
    if (config.kind === 'elevenlabs' || config.kind === 'agora_ten') {
      await Promise.race([engine.open?.(testConversation()), deadline]);
      return done(true, M.agentReady);
    }
    const { reply, spoken } = await Promise.race([askOnce(engine, controller.signal), deadline]);
    if (!reply.trim()) return done(false, M.emptyAnswer, '', hasVoice ? spoken : null);
    return done(true, hasVoice && spoken ? M.spokeToo : M.answered, reply, hasVoice ? spoken : null);
  } catch (err) {
    return done(false, testFailureMessage(err), null, null);
  } finally {
    clearTimeout(timer);
    controller.abort();
    // Closing may itself call out (a REST LOGOUT): bounded, and never the test's outcome.
    void Promise.race([engine.close('test over'), new Promise((r) => setTimeout(r, 3000))]).catch(() => {});
  }
}
