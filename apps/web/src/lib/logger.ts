// Client log level: warn by default, changed with ?logLevel=debug|info|warn|error|silent
// (spec 1 §9). The choice is kept for the tab so it survives navigation.
import { DEFAULT_LOG_LEVEL, LOG_LEVELS, type LogLevel } from '@parla/shared/limits';

const KEY = 'parla.logLevel';
const order: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };

function initialLevel(): LogLevel {
  try {
    const fromUrl = new URLSearchParams(window.location.search).get('logLevel');
    if (fromUrl && (LOG_LEVELS as readonly string[]).includes(fromUrl)) {
      sessionStorage.setItem(KEY, fromUrl);
      return fromUrl as LogLevel;
    }
    const kept = sessionStorage.getItem(KEY);
    if (kept && (LOG_LEVELS as readonly string[]).includes(kept)) return kept as LogLevel;
  } catch {
    // storage unavailable (privacy mode): keep the default
  }
  return DEFAULT_LOG_LEVEL as LogLevel;
}

let level: LogLevel = typeof window === 'undefined' ? 'warn' : initialLevel();

const emit =
  (at: LogLevel, fn: (...a: unknown[]) => void) =>
  (...args: unknown[]) => {
    if (order[at] >= order[level]) fn('[parla]', ...args);
  };

export const logger = {
  debug: emit('debug', console.debug),
  info: emit('info', console.info),
  warn: emit('warn', console.warn),
  error: emit('error', console.error),
  setLevel(next: LogLevel) {
    level = next;
  },
  get level() {
    return level;
  },
};
