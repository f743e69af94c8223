// The two people of the pre-hijacking tests (account-pre-hijack*.test.ts) and their requests:
// registering an address, verifying a link with a password, signing in.
import { expect } from 'vitest';
import type { TestServer } from './harness';

export const ATTACKER = { firstName: 'Mallory', lastName: 'Attacker', password: 'attacker password' };
export const OWNER = { firstName: 'Olivia', lastName: 'Owner', password: 'the owner password' };

export function registrationRequests(server: () => TestServer) {
  return {
    async register(email: string, who: typeof ATTACKER) {
      const res = await server().inject({ method: 'POST', url: '/api/register', payload: { ...who, email } });
      expect(res.statusCode, res.body).toBe(200);
    },
    verify: (code: string, password: string) =>
      server().inject({ method: 'POST', url: '/api/email_verification', payload: { verificationCode: code, mode: 'verify', password } }),
    signIn: (email: string, password: string) =>
      server().inject({ method: 'POST', url: '/api/login', payload: { email, password, rememberMe: true } }),
  };
}
