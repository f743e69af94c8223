// Functions (spec 4 §2, §3, §4, §5, §7) and their review by administrators (beyond the spec:
// the spec's "moderators" approve in the Function Review screen).
import { z } from 'zod';
import { idField } from './common';

export const FUNCTION_STATUSES = ['Pending', 'Approved', 'Rejected'] as const;
export type FunctionStatus = (typeof FUNCTION_STATUSES)[number];

/** The chooser's first entries (spec 4 §2); the server adds its own templates after them. */
export const EMPTY_FUNCTION_TEMPLATE = 'Empty Function Canvas';
export const EXAMPLE_FUNCTION_TEMPLATE = 'Example Function Template';
export const SELECT_TEMPLATE_MESSAGE = 'Please select a function template to create a custom function.';

export const EXAMPLE_FUNCTION_CODE = `def get_order_status(order_id: str) -> dict:
    """Look up the status of an order so the avatar can tell the customer.

    Args:
        order_id: The order number the customer gives, for example "A-1042".

    Returns:
        A dictionary the avatar reads from: the status and the expected delivery date.
    """
    orders = {
        "A-1042": {"status": "shipped", "delivery": "2 days"},
        "A-1043": {"status": "processing", "delivery": "5 days"},
    }
    order = orders.get(order_id.strip().upper())
    if order is None:
        return {"status": "unknown", "message": f"No order {order_id} was found."}
    return {"status": order["status"], "delivery": order["delivery"]}
`;

/** The editor's Code field has 20 rows (spec 4 §9). */
export const FUNCTION_CODE_ROWS = 20;
/** Code is stored and reviewed whole; 100 KB is far beyond a sensible function. */
export const FUNCTION_CODE_MAX_CHARS = 100_000;

const nameField = z
  .string({ error: 'Name is a required field.' })
  .trim()
  .min(1, 'Name is a required field.')
  .max(100, 'Name must be at most 100 characters.');
const codeField = z
  .string({ error: 'Code is a required field.' })
  .min(1, 'Code is a required field.')
  .max(FUNCTION_CODE_MAX_CHARS, `Code must be at most ${FUNCTION_CODE_MAX_CHARS} characters.`)
  .refine((c) => c.trim().length > 0, 'Code is a required field.');

/** The editor's form: File Name and Code. */
export const functionForm = z.object({ name: nameField, code: codeField });
export type FunctionForm = z.infer<typeof functionForm>;

export const functionAction = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('new'), name: nameField, code: codeField, language: z.literal('python').optional() }),
    z.object({ action: z.literal('update'), id: idField, name: nameField, code: codeField, language: z.literal('python').optional() }),
    z.object({ action: z.literal('delete'), id: idField }),
  ],
  { error: "action must be 'new', 'update' or 'delete'" },
);
export type FunctionAction = z.infer<typeof functionAction>;

export const saveFunctionsRequest = z.object({
  functions: z.array(functionAction, { error: 'functions must be a list' }).min(1, 'functions must not be empty').max(20),
});
export type SaveFunctionsRequest = z.infer<typeof saveFunctionsRequest>;

/** Function Review: approving a function whose current code is already approved (issue 17). */
export const ALREADY_APPROVED_MESSAGE = 'This function is already approved.';

export const functionDecisionRequest = z
  .object({
    id: idField,
    approve: z.boolean({ error: 'approve must be true or false' }),
    reason: z.string().trim().max(1000, 'Reason must be at most 1000 characters.').optional(),
    /** The code the reviewer saw: a decision about code that has changed since is refused. */
    codeHash: z.string().trim().max(100).optional(),
  })
  .refine((v) => v.approve || (v.reason && v.reason.length > 0), {
    message: 'A reason is required to reject a function.',
    path: ['reason'],
  });
export type FunctionDecisionRequest = z.infer<typeof functionDecisionRequest>;

export interface FunctionRecord {
  id: string;
  name: string;
  code: string;
  language: 'python';
  approvalStatus: FunctionStatus;
  template: boolean;
  createDate: string;
  lastUpdateDate: string;
  lastAdminUpdateDate: string | null;
  /** The reviewer's reason for the last decision, shown to the author. */
  reviewReason: string | null;
  /** SHA-256 of the code; approval is bound to it. */
  codeHash: string;
}

export interface ReviewFunctionRecord extends FunctionRecord {
  ownerId: string;
  ownerEmail: string;
  ownerName: string;
}

export interface FunctionAuditEntry {
  id: number;
  action: string;
  actorEmail: string | null;
  reason: string | null;
  codeHash: string | null;
  at: string;
}

// --- Try it and the call log (issue 39 item 7, docs/decisions/415-function-try-and-call-log.md) ---

/** Sample arguments: a JSON object as typed in the editor, at most this long. */
export const TRY_ARGUMENTS_MAX_CHARS = 10_000;
export const TRY_ARGUMENTS_INVALID = 'Arguments must be a JSON object, for example {"order_id": "A-1"}.';
/** The longest result or error shown by Try (and stored, shorter, in the call log). */
export const TRY_RESULT_MAX_CHARS = 4_000;
export const CALL_EXCERPT_MAX_CHARS = 300;

export const tryFunctionRequest = z.object({
  /** The function being edited (yours): without `code`, its saved code runs. */
  id: idField.optional(),
  /** The code as typed in the editor, saved or not. */
  code: codeField.optional(),
  /** The Python function of the file to call. */
  functionName: z
    .string({ error: 'Function is a required field.' })
    .trim()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, 'Function must be the name of a function defined in the code.'),
  /** JSON text of an object. */
  arguments: z.string().max(TRY_ARGUMENTS_MAX_CHARS, `Arguments must be at most ${TRY_ARGUMENTS_MAX_CHARS} characters.`).default('{}'),
});
export type TryFunctionRequest = z.infer<typeof tryFunctionRequest>;

export type TryFunctionResponse = { ok: true; result: string; durationMs: number } | { ok: false; error: string; durationMs: number };

export interface FunctionCallRecord {
  at: string;
  avatarId: string | null;
  avatarName: string | null;
  durationMs: number;
  ok: boolean;
  excerpt: string;
}
