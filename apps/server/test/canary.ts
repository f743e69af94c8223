// A listener on loopback that counts every connection: SSRF tests assert it stays at zero.
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Canary {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

export async function startCanary(): Promise<Canary> {
  let count = 0;
  const servers: Server[] = [];
  const v4 = createServer((s) => (count++, s.destroy()));
  await new Promise<void>((r) => v4.listen(0, '127.0.0.1', () => r()));
  servers.push(v4);
  const port = (v4.address() as AddressInfo).port;
  // The same port on ::1, when the machine has IPv6 loopback.
  const v6 = createServer((s) => (count++, s.destroy()));
  await new Promise<void>((r) => {
    v6.once('error', () => r());
    v6.listen(port, '::1', () => (servers.push(v6), r()));
  });
  return {
    port,
    connections: () => count,
    close: async () => {
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}
