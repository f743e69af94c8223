// The routes' validation: fastify-type-provider-zod's compiler, with one guard. zod's length checks
// compare `value.length` with their limit even when the value failed its type (to report every
// issue), so a JSON object whose `length` is an object without a usable `toString`
// ({"avatarId": {"length": {"toString": 2}}}) threw a TypeError inside the parse, which Fastify
// answered as a 500 (found by the random bodies of test/attack/bad-input-all.test.ts). Such a body
// is malformed input like any other: 400 in the contract shape.
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { AppError } from '../lib/errors';

export const guardedValidatorCompiler: FastifySchemaCompiler<Parameters<typeof validatorCompiler>[0]['schema']> = (route) => {
  const validate = validatorCompiler(route);
  return (data) => {
    try {
      return validate(data);
    } catch (err) {
      if (err instanceof TypeError) return { error: AppError.invalid() };
      throw err;
    }
  };
};
