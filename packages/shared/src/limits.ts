// Business constants and timings (spec 1 §9, spec 2 §9, spec 4 §9), each with its reason.

export const MB = 1024 * 1024;

/** Every API call gives up after 10 s (spec 1 §7). */
export const REQUEST_TIMEOUT_MS = 10_000;
/** Below this width the navbar becomes a drawer and the avatar screen shows the list only. */
export const MOBILE_BREAKPOINT_PX = 760;
/** The billing report opens on the last month. */
export const BILLING_DEFAULT_WINDOW_MONTHS = 1;
export const OAUTH_SUCCESS_REDIRECT_MS = 3000;
export const OAUTH_EDIT_CLOSE_MS = 3000;
export const VPS_DELETE_CLOSE_MS = 3000;
export const AVATAR_DELETE_CLOSE_MS = 2000;
export const OAUTH_VALUE_TRUNCATE = 30;
export const SESSION_ID_TRUNCATE = 20;
/** By default the home page is skipped and visitors go to sign-in. */
export const SKIP_HOME_DEFAULT = true;
/** Client log level unless ?logLevel= says otherwise. */
export const DEFAULT_LOG_LEVEL = 'warn';
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Toasts (spec 2 §9, spec 4 §8). */
export const TOAST_SUCCESS_MS = 2000;
export const TOAST_ERROR_MS = 4000;
export const TOAST_FILE_SIZE_MS = 5000;
export const TOAST_KNOWLEDGE_ERROR_MS = 5000;
export const COPY_SNACKBAR_MS = 2000;

/** Sessions: 12 h normally, 30 days with Remember me (expiry decided by the server). */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
export const SESSION_REMEMBER_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Admin-proxy codes are single use and short lived: they travel in a URL. */
export const ADMIN_PROXY_CODE_TTL_MS = 5 * 60 * 1000;
export const EMAIL_VERIFICATION_TTL_MS = 48 * 60 * 60 * 1000;
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
/** Mails to one address: at most one of each kind (verification, already registered, reset) per
 *  interval, so nobody can flood an inbox through register or forgot password (288 a day at most). */
export const MAIL_PER_ADDRESS_INTERVAL_MS = 5 * 60 * 1000;
/** Verification mails to one address: a few per hour, so the owner's own first mail still goes
 *  out at once after somebody else registered her address, while a flood stays capped (72 a day). */
export const VERIFY_MAILS_PER_WINDOW = 3;
export const VERIFY_MAIL_WINDOW_MS = 60 * 60 * 1000;
/** Registrations kept per unverified address (the newest): each keeps its own password until the
 *  mailbox owner verifies one; the cap bounds the hashes a sign-in or verification checks. */
export const PENDING_REGISTRATIONS_PER_ADDRESS = 5;
/** Knowledge API tokens are short lived and bound to the session that issued them. */
export const KNOWLEDGE_JWT_TTL_S = 15 * 60;

/** Passwords: NIST/OWASP — a minimum length, a generous maximum, no composition rules. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** Per-account lockout: after this many failures in the window, sign-in answers 429. */
export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

/** OAuth configs per account: one per partner and environment is the usual need; the cap stops
 *  a script from filling the table. */
export const OAUTH_APPS_PER_ACCOUNT = 50;

/**
 * Uploads of the avatar editor (spec 2 §5, §9). One table for the browser's pre-check, the
 * server's streaming check and the message 'File size exceeds {n}MB for {type}.'.
 * Images are backgrounds (16:9) and avatar photos; videos are looping backgrounds; glb is the
 * customer's own 3D environment.
 */
export const UPLOAD_LIMITS = {
  image: 10 * MB,
  video: 25 * MB,
  glb: 25 * MB,
} as const;
export type UploadKind = keyof typeof UPLOAD_LIMITS;

export function fileTooLargeMessage(kind: UploadKind): string {
  return `File size exceeds ${UPLOAD_LIMITS[kind] / MB}MB for ${kind}.`;
}

/** The avatar photo is cropped square in the browser and never stored larger than this. */
export const AVATAR_PHOTO_MAX_PX = 800;
/** Own backgrounds and 3D environments kept per avatar (each list). */
export const AVATAR_MEDIA_PER_LIST = 20;
/** `GET /api/avatar/list`: cards per page when the caller names none (the portal asks for this
 *  many; an account with fewer sees its whole list at once), and the most one page may hold. */
export const AVATAR_LIST_PAGE = 200;
/** Rows of the billing report per answer (issue 37: the last list without paging sent 516 KB at
 *  5,000 avatars); the total row always covers every row of the range. */
export const BILLING_PAGE = 200;
export const BILLING_PAGE_MAX = 1000;
export const AVATAR_LIST_PAGE_MAX = 1000;
/** The other lists that grow with an account or the product (online users, knowledge items,
 *  customers, functions): rows per page, and the most one request may ask (decision 221). */
export const LIST_PAGE = 200;
export const LIST_PAGE_MAX = 1000;
/** The editor's live preview and the list's card width (spec 2 §9). Spec 2 gives the preview
 *  240 px: a start screen too small to talk to. Issue 36 (item 6) asks for the real player at a
 *  usable size (decision 125): a phone-shaped stage beside the tabs. */
export const AVATAR_PREVIEW_HEIGHT_PX = 460;
export const AVATAR_CARD_MAX_WIDTH_PX = 328;
/** New avatars: the billing authorization ping interval (s) and the speaking rate. */
export const DEFAULT_BILLING_AUTH_PING_TIME = 30;
export const DEFAULT_WORDS_PER_SEC = 3;
/** Idle conversations end after 5 minutes unless the avatar says otherwise (spec 3 §9). */
export const DEFAULT_IDLE_TIMEOUT_S = 300;
