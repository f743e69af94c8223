// The Brain tab's Test (issue 39 item 3): the avatar's brain as the editor holds it, saved or
// not, asked one real question through the runtime's own engine, and what happened said in the
// customer's words. The body is the save's own payload (the same fields, the same rules).
import type { z } from 'zod';
import { PRODUCT_NAME } from '../enums';
import { saveAvatarRequest } from './avatar';

export const brainTestRequest = saveAvatarRequest.required({ id: true });
export type BrainTestRequest = z.input<typeof brainTestRequest>;

/** The question the test asks the brain. */
export const BRAIN_TEST_QUESTION = `Hello! This is a test from the ${PRODUCT_NAME} editor: please answer briefly.`;

/** How long a test waits for the whole answer (a conversation gets longer; a test says why it stopped). */
export const BRAIN_TEST_TIMEOUT_MS = 15_000;

export interface BrainTestResponse {
  /** The brain worked, and so did the speech recognition when it was tested. */
  ok: boolean;
  /** The brain's own part worked (it answered; a third-party agent accepted the connection). */
  brainOk: boolean;
  /** What happened to the brain, in the customer's words. */
  message: string;
  /** The brain's answer (its first 500 characters), when it gave one. */
  reply: string | null;
  /** Whether the avatar's server voice spoke the answer (null: this avatar has no server voice). */
  spoken: boolean | null;
  /** How long the test took, start to end. */
  ms: number;
  /** The server's speech recognition, given a sentence said by the built-in voice (null: this
   *  avatar's visitors are heard by their browser, or not at all: nothing runs on the server). */
  hearing: BrainTestHearing | null;
}

export interface BrainTestHearing {
  ok: boolean;
  message: string;
  /** What the recognition heard (null: it failed before answering). */
  heard: string | null;
}

/** What failed in a test, in the customer's words (empty when everything worked). */
export function brainTestFailures(r: BrainTestResponse): string[] {
  return [...(r.brainOk ? [] : [r.message]), ...(r.hearing && !r.hearing.ok ? [r.hearing.message] : [])];
}

/** The sentence the built-in voice says to the speech recognition. */
export const HEARING_TEST_SENTENCE = 'Hello, what are your opening hours today?';

export const BRAIN_TEST_MESSAGES = {
  answered: 'The brain answered.',
  spokeToo: 'The brain answered and the voice spoke the answer.',
  emptyAnswer: 'The brain answered with no text. Visitors would hear nothing.',
  echo: 'Echo mode repeats what the visitor says: nothing to test.',
  agentReady: "The agent accepted the connection. Visitors' browsers talk to it directly, so its answers are not shown here.",
  timeout: `No answer within ${BRAIN_TEST_TIMEOUT_MS / 1000} seconds. Check that the address answers, or that the model is not overloaded.`,
  refused: (reason: string) => `The address was refused: ${reason}. Only public internet addresses can be reached from ${PRODUCT_NAME}.`,
  unreachable: (detail: string) => `The address could not be reached: ${detail}.`,
  keyRefused: (status: number) => `The provider refused the key (HTTP ${status}). Check the API key or credentials.`,
  notFound: 'Not found (HTTP 404): check the URL, the model name, the agent or the project.',
  rejected: (status: number, excerpt: string) => `The provider answered HTTP ${status}${excerpt ? `: ${excerpt}` : ''}.`,
  voiceFailed: (detail: string) => `The brain answered, but the voice failed: ${detail}.`,
  failed: (detail: string) => `The test failed: ${detail}.`,
  saveWarning: 'The test of this brain failed. Save anyway?',
  heard: 'The speech recognition heard the test sentence.',
  heardNothing: 'The speech recognition heard nothing in the test sentence. Check its language and model.',
  hearingFailed: (detail: string) => `The speech recognition failed: ${detail}`,
  noTestVoice: 'The speech recognition could not be tested: this server has no built-in voice to say the test sentence.',
} as const;
