// A pipeline node process: `npm run node -- --server http://host:port [--name NAME] [--capacity N]`
// with NODE_SECRET in the environment (the server's own). It registers over WS /ws/node,
// heartbeats, and runs the engines of the conversations the server sends it. Outbound requests
// go through the same SSRF guard as the server's (OUTBOUND_ALLOW / OUTBOUND_ALLOW_PRIVATE apply).
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { OutboundClient, outboundPolicyFromConfig } from './lib/outbound';
import { runDir } from './lib/run-dir';
import { DEFAULT_SHUTDOWN_GRACE_MS, handleShutdownSignals, SHUTDOWN_CALL_TIMEOUT_MS, ShutdownSteps } from './lib/shutdown';
import { NodeAgent } from './runtime/nodes/node-agent';
import { stopSnapshotMaker } from './runtime/sandbox/confinement';
import { EmbeddedVoicePool } from './runtime/engines/embedded/voice-pool';
import { Sandbox } from './runtime/sandbox/sandbox';
import { sandboxCaps, sandboxEnvSchema } from './config';
import { DEFAULT_MODEL_TIMEOUTS } from './runtime/engines/llm';

/** SHUTDOWN_GRACE_MS as the server reads it (3 s to 10 min), else the default. */
function parseConfigGrace(v: string | undefined): number {
  const n = Number(v);
  return Number.isInteger(n) && n >= 3000 && n <= 600_000 ? n : DEFAULT_SHUTDOWN_GRACE_MS;
}

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
  runDir(); // and the run directories of killed processes are removed (decision 018)
  const outbound = new OutboundClient(
    outboundPolicyFromConfig({
      OUTBOUND_ALLOW: process.env.OUTBOUND_ALLOW ?? '',
      OUTBOUND_ALLOW_PRIVATE: process.env.OUTBOUND_ALLOW_PRIVATE === 'true',
    }),
  );
  // The same caps as the server's (SANDBOX_MAX_PROCESSES...); a bad value stops the start.
  const sandbox = new Sandbox(sandboxCaps(sandboxEnvSchema.parse(process.env)));
  const graceMs = parseConfigGrace(process.env.SHUTDOWN_GRACE_MS);
  // The embedded voice speaks here too when an avatar's "Default" voice runs on this node.
  const voices = new EmbeddedVoicePool();
  const log = logger();
  const agent = new NodeAgent({
    server,
    secret,
    name: values.name ?? hostname(),
    capacity: Number.isInteger(Number(values.capacity)) && Number(values.capacity) > 0 ? Number(values.capacity) : 50,
    deps: {
      outbound,
      log,
      now: () => new Date(),
      runTool: (tool, args) => sandbox.run(tool, args),
      voices,
      // The same variables as the server's (decision 614); unset or not a number → the defaults.
      modelTimeouts: {
        firstTokenMs: Number(process.env.LLM_FIRST_TOKEN_MS) || DEFAULT_MODEL_TIMEOUTS.firstTokenMs,
        stallMs: Number(process.env.LLM_STALL_MS) || DEFAULT_MODEL_TIMEOUTS.stallMs,
      },
    },
    log: (l) => process.stderr.write(`[node] ${l}\n`),
    onClosed: () => void stop(),
  });
  // The same bounded shutdown as the server's (decision 014): the engines' closing calls (a REST
  // endpoint's LOGOUT...) are short, and what hangs past the deadline is abandoned.
  const close = async (steps: ShutdownSteps) => {
    outbound.shutdown(SHUTDOWN_CALL_TIMEOUT_MS);
    await steps.run('conversations', () => agent.close(), log, steps.remaining() - 500);
    await steps.run('sandbox', () => sandbox.close(), log);
    await steps.run('embedded voice', () => voices.close(), log);
    await steps.run('outbound calls', () => outbound.close(), log);
  };
  const abandon = () => {
    void sandbox.close();
    void voices.close();
    stopSnapshotMaker();
  };
  let stopping = false;
  // Deleted by an administrator or the server went away: this process is done.
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await close(new ShutdownSteps(graceMs));
    process.exit(0);
  };
  const nodeId = await agent.connect();
  process.stdout.write(`node registered: ${nodeId}\n`);
  handleShutdownSignals({ name: 'parla node', graceMs, log, close, abandon });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
