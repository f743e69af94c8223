// Sign-in, registration, verification, password reset, sign-out, admin-proxy codes and the
// knowledge API token. Validate → authenticate → service → reply.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  emailVerificationRequest,
  forgotPasswordRequest,
  impersonateRequest,
  loginRequest,
  registerRequest,
  resetPasswordRequest,
} from '@parla/shared/schemas/auth';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/auth';
import * as auth from './auth.service';
import * as registration from './registration.service';

function meta(request: FastifyRequest): auth.RequestMeta {
  return { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null };
}

export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // Per-address limits run in onRequest, before the body is read or any password is hashed.
    const limited = { rateLimit: { max: ctx.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } };

    app.post('/api/login', { schema: { body: loginRequest }, config: { auth: 'app', ...limited } }, (request) =>
      auth.login(ctx, request.body, meta(request)),
    );

    app.get('/api/logout', { config: { auth: 'user' } }, async (request) => {
      await auth.logout(ctx, requireUser(request));
      return { status: 'OK' };
    });

    app.post('/api/register', { schema: { body: registerRequest }, config: { auth: 'app', ...limited } }, async (request) => {
      await registration.register(ctx, request.body);
      return { status: 'OK' };
    });

    app.post('/api/email_verification', { schema: { body: emailVerificationRequest }, config: { auth: 'app', ...limited } }, (request) =>
      registration.verifyEmail(ctx, request.body),
    );

    app.post('/api/forgot_password', { schema: { body: forgotPasswordRequest }, config: { auth: 'app', ...limited } }, async (request) => {
      auth.forgotPassword(ctx, request.body.email);
      return { status: 'OK' };
    });

    app.post('/api/reset_password', { schema: { body: resetPasswordRequest }, config: { auth: 'app', ...limited } }, async (request) => {
      const body = request.body;
      if (body.mode === 'validate') return { status: 'OK', ...(await auth.validateResetCode(ctx, body.resetToken)) };
      return { status: 'OK', ...(await auth.resetPassword(ctx, body.resetToken, body.newPassword)) };
    });

    app.get('/api/token/jwt', { config: { auth: 'user' } }, (request) => auth.issueKnowledgeJwt(ctx, requireUser(request)));

    app.post('/api/admin/impersonate', { schema: { body: impersonateRequest }, config: { auth: 'admin' } }, (request) =>
      auth.impersonate(ctx, requireUser(request), request.body.userId),
    );
  };
}
