// Payloads of sign-in, registration, verification and password reset (spec 4 §5, spec 1 §5).
import { z } from 'zod';
import { emailField, newPasswordField, optionalText, passwordPresent } from './common';
import type { UserType } from '../enums';

export const loginRequest = z
  .object({
    email: emailField,
    password: z.string({ error: 'Password is required' }).max(256, 'Password is required').optional(),
    rememberMe: z.boolean({ error: 'Remember me must be true or false' }).optional(),
    adminSessionId: z.string({ error: 'Admin session is invalid' }).trim().min(1).max(200).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.adminSessionId === undefined && !value.password) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'Password is required' });
    }
  });
export type LoginRequest = z.infer<typeof loginRequest>;

/** The form's own shape: a password is always typed there. */
export const loginForm = z.object({
  email: emailField,
  password: passwordPresent,
  rememberMe: z.boolean(),
});
export type LoginForm = z.infer<typeof loginForm>;

export interface LoginResponse {
  status: 'OK';
  sessionId: string;
  userName: string;
  expiryDate: string;
  userType: UserType;
  adminProxy: boolean;
}

export const registerRequest = z.object({
  firstName: z.string({ error: 'First Name is required' }).trim().min(1, 'First Name is required').max(100, 'First Name is too long'),
  lastName: z.string({ error: 'Last Name is required' }).trim().min(1, 'Last Name is required').max(100, 'Last Name is too long'),
  companyName: optionalText(200, 'Company Name is too long'),
  mobileNumber: optionalText(40, 'Mobile Number is too long'),
  email: emailField,
  password: newPasswordField,
});
export type RegisterRequest = z.infer<typeof registerRequest>;
export type RegisterForm = z.input<typeof registerRequest>;

export const emailVerificationRequest = z.object({
  verificationCode: z
    .string({ error: 'Verification code is required' })
    .trim()
    .min(1, 'Verification code is required')
    .max(200, 'Verification code is invalid'),
  mode: z.literal('verify', { error: "mode must be 'verify'" }),
  // The mailbox owner confirms the password she registered with: the link proves the mailbox,
  // the password says which registration of the address is hers (decision 011).
  password: passwordPresent,
});
export type EmailVerificationRequest = z.infer<typeof emailVerificationRequest>;
/** The verification page's form: the password typed by the mailbox owner. */
export const emailVerificationForm = emailVerificationRequest.pick({ password: true });
export type EmailVerificationForm = z.infer<typeof emailVerificationForm>;

export interface EmailVerificationResponse {
  status: 'OK' | 'ERROR';
  email: string;
  firstName: string;
  displayMessage: string;
  displayTitle: string;
  errors: string[];
}

export const forgotPasswordRequest = z.object({ email: emailField });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;

const resetToken = z.string({ error: 'Empty Reset Code' }).trim().min(1, 'Empty Reset Code').max(200, 'Invalid Code');

export const resetPasswordRequest = z.discriminatedUnion(
  'mode',
  [
    z.object({ mode: z.literal('validate'), resetToken }),
    z.object({ mode: z.literal('reset'), resetToken, newPassword: newPasswordField }),
  ],
  { error: "mode must be 'validate' or 'reset'" },
);
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

export const resetPasswordForm = z.object({ newPassword: newPasswordField });

export const resendVerificationRequest = z.object({ email: emailField });

export const impersonateRequest = z.object({
  userId: z.string({ error: 'User is required' }).trim().min(1, 'User is required').max(100, 'User is invalid'),
});
export type ImpersonateRequest = z.infer<typeof impersonateRequest>;

export interface PortalSettings {
  allowRegistration: boolean;
  skipHome: boolean;
  docsUrl: string;
  productName: string;
  /** The web app's application key: it identifies the client, it is not a secret. */
  appKey: string;
  /** The server's PUBLIC_URL: the base of every address the product hands out (OAuth callback
   *  URLs, avatar links), whatever address the portal was opened at. */
  publicUrl: string;
}
