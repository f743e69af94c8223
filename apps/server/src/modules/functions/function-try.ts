// The editor's Try it (issue 39 item 7, decision 415): the code as typed in the editor (saved or
// not; an id without code runs the saved code) is run with sample arguments in the same sandbox
// as live calls: the same process caps (SANDBOX_MAX_PROCESSES), the owner's share, the wall-clock
// and memory limits and the OS confinement. Only the approval check is not made: seeing what the
// code does before it is submitted for review is the point, and what stops code is the sandbox.
import { performance } from 'node:perf_hooks';
import {
  TRY_ARGUMENTS_INVALID,
  TRY_RESULT_MAX_CHARS,
  type TryFunctionRequest,
  type TryFunctionResponse,
} from '@parla/shared/schemas/functions';
import { ErrorCode } from '@parla/shared/errors';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import type { Sandbox } from '../../runtime/sandbox/sandbox';
import * as repo from './functions.repository';

function clip(text: string): string {
  return text.length > TRY_RESULT_MAX_CHARS ? `${text.slice(0, TRY_RESULT_MAX_CHARS - 1)}…` : text;
}

function parseArguments(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text.trim() || '{}');
  } catch {
    value = null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new AppError(ErrorCode.InvalidOrMissingParams, 400, [TRY_ARGUMENTS_INVALID]);
  return value as Record<string, unknown>;
}

export async function tryFunction(
  ctx: AppContext,
  sandbox: Sandbox,
  ownerId: string,
  input: TryFunctionRequest,
): Promise<TryFunctionResponse> {
  const args = parseArguments(input.arguments);
  let code = input.code;
  if (input.id) {
    const saved = await repo.find(ctx.db, ownerId, input.id);
    if (!saved) throw AppError.notFound('Function');
    code ??= saved.code;
  }
  if (!code) throw new AppError(ErrorCode.InvalidOrMissingParams, 400, ['Code is a required field.']);
  const started = performance.now();
  const reply = await sandbox.tryRun(code, input.functionName, args, ownerId);
  const durationMs = Math.round(performance.now() - started);
  return reply.ok ? { ok: true, result: clip(reply.result), durationMs } : { ok: false, error: clip(reply.error), durationMs };
}
