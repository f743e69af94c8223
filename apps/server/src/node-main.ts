// A pipeline node process: `npm run node -- --server http://host:port [--name NAME] [--capacity N]`
// with NODE_SECRET in the environment (the server's own). It registers over WS /ws/node,
// heartbeats, and runs the engines of the conversations the server sends it. Outbound requests
// go through the same SSRF guard as the server's (OUTBOUND_ALLOW / OUTBOUND_ALLOW_PRIVATE apply).
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { OutboundClient, outboundPolicyFromConfig } from './lib/outbound';
import { NodeAgent } from './runtime/nodes/node-agent';
import { EmbeddedVoicePool } from './runtime/engines/embedded/voice-pool';
import { Sandbox } from './runtime/sandbox/sandbox';

function logger(): FastifyBaseLogger {
  const line = (level: string) => (obj: unknown, msg?: string) => {
    const text = typeof obj === 'string' ? obj : `${msg ?? ''} ${JSON.stringify(obj)}`;
    process.stderr.write(`[node] ${level}: ${text}\n`);
  };
  const log = {
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    debug: () => undefined,
    trace: () => undefined,
    fatal: line('fatal'),
    silent: () => undefined,
    level: 'info',
  };
  return { ...log, child: () => log } as unknown as FastifyBaseLogger;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { server: { type: 'string' }, name: { type: 'string' }, capacity: { type: 'string' } },
    allowPositionals: false,
  });
  const server = values.server ?? process.env.PARLA_SERVER;
  const secret = process.env.NODE_SECRET;
  if (!server) throw new Error('Usage: npm run node -- --server http://host:port [--name NAME] [--capacity N]');
  if (!secret || secret.length < 16) throw new Error("Set NODE_SECRET (at least 16 characters, the same as the server's).");
  const outbound = new OutboundClient(
    outboundPolicyFromConfig({
      OUTBOUND_ALLOW: process.env.OUTBOUND_ALLOW ?? '',
      OUTBOUND_ALLOW_PRIVATE: process.env.OUTBOUND_ALLOW_PRIVATE === 'true',
    }),
  );
  const sandbox = new Sandbox();
  // The embedded voice speaks here too when an avatar's "Default" voice runs on this node.
  const voices = new EmbeddedVoicePool();
  const log = logger();
  const agent = new NodeAgent({
    server,
    secret,
    name: values.name ?? hostname(),
    capacity: Number.isInteger(Number(values.capacity)) && Number(values.capacity) > 0 ? Number(values.capacity) : 50,
    deps: { outbound, log, now: () => new Date(), runTool: (tool, args) => sandbox.run(tool, args), voices },
    log: (l) => process.stderr.write(`[node] ${l}\n`),
    // Deleted by an administrator or the server went away: this process is done.
    onClosed: () => void stop(),
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await agent.close();
    await sandbox.close();
    await voices.close();
    await outbound.close();
    process.exit(0);
  };
  const nodeId = await agent.connect();
  process.stdout.write(`node registered: ${nodeId}\n`);
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
