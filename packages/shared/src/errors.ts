// The client error codes of spec 1 §8 and the one message each shows. The server answers
// { status: 'ERROR', code, errors } with these codes; the web app maps them to UI.

export const ErrorCode = {
  FallbackError: -1,
  Nil: 0,
  RoomFull: 1,
  ServerError: 2,
  Unknown: 3,
  NetworkError: 4,
  WebSocketError: 5,
  AuthenticationFailed: 6,
  InvalidOrMissingParams: 7,
  BinarySocketError: 8,
  RoomNotFoundError: 9,
  AvatarCreateLimitReached: 10,
  UsageLimitExceeded: 11,
  MaxConcurrencyReached: 12,
  InvalidToken: 13,
  RequestFail: 14,
  StaleRequest: 15,
  InvalidAPIKey: 16,
  MaxConcurrencyPerIPReached: 17,
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const INVALID_PARAMS_FALLBACK = 'A required property is missing or invalid. Please check your input and try again.';

export const STALE_REQUEST_MESSAGE =
  'Avatar data is outdated. It may have been updated from another instance. Please refresh the page to load the latest version.';

export const AVATAR_LIMIT_MESSAGE =
  'You have reached the maximum number of avatars your subscription plan allows. Upgrade your plan on the account page to create more.';

/** One message per code. Where the spec gives no text (RoomFull, UsageLimitExceeded,
 *  MaxConcurrencyReached) the text is ours. */
export const ERROR_MESSAGES: Record<ErrorCode, string> = {
  [ErrorCode.FallbackError]: 'An unexpected error occurred. Please try again.',
  [ErrorCode.Nil]: 'An unexpected error occurred. Please try again.',
  [ErrorCode.RoomFull]: 'This avatar is busy with too many conversations right now. Please try again in a moment.',
  [ErrorCode.ServerError]: 'Oops! Something went wrong on our end. Please try again later or contact support if the issue persists.',
  [ErrorCode.Unknown]: 'An unexpected error occurred. Please try again later, or contact support if the problem continues.',
  [ErrorCode.NetworkError]: "It seems we're having trouble connecting. Please check your internet connection and try again.",
  [ErrorCode.WebSocketError]: 'The conversation connection was lost. Please reconnect and try again.',
  [ErrorCode.AuthenticationFailed]: 'Authentication failed. Please re-login and try again. If the issue persists, contact support',
  [ErrorCode.InvalidOrMissingParams]: INVALID_PARAMS_FALLBACK,
  [ErrorCode.BinarySocketError]: 'The audio connection failed. Please reconnect and try again.',
  [ErrorCode.RoomNotFoundError]: 'The conversation could not be found. Please start a new one.',
  [ErrorCode.AvatarCreateLimitReached]: AVATAR_LIMIT_MESSAGE,
  [ErrorCode.UsageLimitExceeded]:
    'The conversation time included in this plan has been used up. Please upgrade the plan or try again later.',
  [ErrorCode.MaxConcurrencyReached]: 'The maximum number of simultaneous conversations has been reached. Please try again later.',
  [ErrorCode.InvalidToken]: 'The token is invalid, expired or malformed.',
  [ErrorCode.RequestFail]: 'The request failed because of an internal error or a timeout. Please try again.',
  [ErrorCode.StaleRequest]: STALE_REQUEST_MESSAGE,
  [ErrorCode.InvalidAPIKey]: 'The API key is invalid or has been revoked.',
  [ErrorCode.MaxConcurrencyPerIPReached]:
    'Too many concurrent connections from your IP address. Please reduce the request frequency or upgrade your plan.',
};

/** A write that needs disk space the server does not have (507 with Retry-After; decision 013). */
export const DISK_FULL_MESSAGE = 'Not enough space on the server. Please try again later.';

/** What the administrator's VPS screen says when /api/health reports the disk low or full. */
export const DISK_STATE_MESSAGES = {
  low: 'The server is low on disk space: uploads are refused until more space is free in its data directory.',
  full: "The server's disk is full: uploads and saves are refused (reads and conversations still work). Free space in its data directory; it recovers by itself.",
} as const;

export function errorMessage(code: number): string {
  return (ERROR_MESSAGES as Record<number, string>)[code] ?? ERROR_MESSAGES[ErrorCode.FallbackError];
}

/** Every `failReason` an error body may carry: a machine-readable cause beside the code, for
 *  screens that answer one cause differently (the avatar editor, the brain forms, …). One union:
 *  the server cannot throw a reason the clients do not know. */
export const FAIL_REASONS = [
  // any area
  'NOT_FOUND',
  'STALE_REQUEST',
  'FILE_TOO_LARGE',
  'RATE_LIMITED',
  'DISK_FULL',
  // sign-in and account
  'INVALID_CODE',
  'WRONG_PASSWORD',
  'REQUEST_PENDING',
  'NO_PENDING_REQUEST',
  'SAME_PLAN',
  'LIMIT_REACHED',
  'ACCOUNT_SUSPENDED',
  // avatars (AVATAR_FAIL_REASONS in schemas/avatar.ts)
  'AVATAR_LIMIT_REACHED',
  'INVALID_FILE_TYPE',
  'INVALID_APPEARANCE',
  'INVALID_UPLOAD',
  'MEDIA_LIMIT_REACHED',
  // brain and providers
  'INVALID_BRAIN',
  'INVALID_ADVANCED',
  'PROVIDER_UNREACHABLE',
  'PROVIDER_REJECTED',
  'INVALID_URL_OR_KEY',
  'INVALID_KEY',
  'ASSISTANTS_FAILED',
  'VOICES_FAILED',
  'BASE_URL_UNKNOWN',
  'BASE_URL_REFUSED',
  'STORED_KEY_MISSING',
  'PROXY_HEADER',
  'PROXY_NOT_ALLOWED',
  // knowledge, files, keys
  'ADDRESS_REFUSED',
  'FILE_REQUIRED',
  'FILE_IN_USE',
  'INVALID_FILE',
  'NOT_FAILED',
  'DEFAULT_KEY',
  // functions
  'ALREADY_APPROVED',
  // knowledge
  'DUPLICATE',
  'NOT_A_PAGE',
  'BUSY',
  // pipeline nodes (VPS)
  'INVALID_VPS',
  'ALREADY_DISCONNECTED',
] as const;
export type FailReason = (typeof FAIL_REASONS)[number];

/** The failure body of every API error (design/api.md). */
export interface ErrorBody {
  status: 'ERROR';
  code: ErrorCode;
  errors: string[];
  failReason?: FailReason;
}

export function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { status?: unknown }).status === 'ERROR' &&
    typeof (value as { code?: unknown }).code === 'number' &&
    Array.isArray((value as { errors?: unknown }).errors)
  );
}

/** Screen messages of spec 1 §8. */
export const SCREEN_MESSAGES = {
  accountDetailsFailed: 'Failed to fetch Account Details. Please try again',
  billingFailed: 'Failed to fetch billing data.',
  subscriptionFailed: 'An error occurred while processing your subscription request. Please try again later.',
  onlineUsersFailed: 'Failed to fetch online users.',
  onlineUsersAdminFailed: 'Failed to fetch Online Users.',
  userDetailsFailed: 'Failed to fetch user details.',
  vpsDetailsFailed: 'Failed to fetch VPS details.',
  vpsListFailed: 'Failed to fetch connected VPS List.',
  appsFailed: 'Failed to fetch apps.',
  addOauthFailed: 'Failed to add OAuth Config!',
  deleteOauthFailed: 'Failed to Delete OAuth Config!',
  deleteFailed: 'Delete Failed!',
  deleteVpsFailed: 'Failed to Delete VPS!',
  oauthCreated: 'OAuth Config Created Successfully!',
  oauthUpdated: 'OAuth Config Updated Successfully!',
  deleted: 'Deleted Successfully!',
} as const;

export const VPS_DELETE_CAUSES = {
  serverError: 'Server Error occured while Delete',
  invalid: 'Invalid VPS',
  alreadyDisconnected: 'VPS was already discinnected',
} as const;

/** 'Error Code: {status}#{text}#Unable to reach the gateway' */
export function gatewayUnreachableMessage(status: number, text: string): string {
  return `Error Code: ${status}#${text}#Unable to reach the gateway`;
}
