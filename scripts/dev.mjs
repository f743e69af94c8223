// npm run dev: the API server (restarting on change) and the Vite dev servers of the portal
// (http://localhost:5173/react/) and the player, side by side.
import { spawn } from 'node:child_process';

const procs = [
  spawn('node', ['--import', 'tsx', '--watch', 'apps/server/src/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
  }),
  spawn('npm', ['run', 'dev', '-w', '@parla/web'], { stdio: 'inherit' }),
];
const stop = () => procs.forEach((p) => p.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const p of procs) p.on('exit', (code) => (code ? (stop(), process.exit(code)) : undefined));
