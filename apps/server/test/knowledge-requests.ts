// Test-only helpers for the knowledge API tests: the JWT of an account and requests with it.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestServer } from './harness';
import type { TestAccount } from './accounts';

export async function kbToken(server: TestServer, account: TestAccount): Promise<string> {
  const res = await server.inject({ method: 'GET', url: '/api/token/jwt', token: account.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().jwtToken as string;
}

export type Kb = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => Promise<LightMyRequestResponse>;

/** Requests to the knowledge API as this account. */
export async function kbClient(server: TestServer, account: TestAccount): Promise<Kb> {
  const jwt = await kbToken(server, account);
  return (method, url, payload) =>
    server.inject({
      method,
      url,
      appKey: null,
      headers: { authorization: `Bearer ${jwt}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

/** A multipart body with one file field. */
export function multipart(field: string, fileName: string, data: Buffer, contentType = 'application/octet-stream') {
  const boundary = `----parla${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Uploads a file for knowledge as this account (POST /kb/v1/files); the file reference to add as an item. */
export async function uploadKnowledgeFile(
  server: TestServer,
  account: TestAccount,
  name: string,
  data: Buffer,
  type = 'application/octet-stream',
): Promise<{ url: string; file_name: string; file_type: string }> {
  const body = multipart('file', name, data, type);
  const res = await server.inject({
    method: 'POST',
    url: '/kb/v1/files',
    appKey: null,
    headers: { ...body.headers, authorization: `Bearer ${await kbToken(server, account)}` },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { url: string; file_name: string; file_type: string };
}
