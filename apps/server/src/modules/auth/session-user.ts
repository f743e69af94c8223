import type { UserType } from '@parla/shared/enums';

/** The signed-in user of a request (plugins/auth.ts), as the session look-up finds it. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  type: UserType;
  /** The session record's id (not its token). */
  sessionId: string;
  adminProxy: boolean;
  impersonatorId: string | null;
}
