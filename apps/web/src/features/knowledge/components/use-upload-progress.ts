// The upload progress overlay's state (spec 4 §4): normal → success | partial | error, idle when
// hidden. Progress is simulated where nothing can be measured (a tick every 200 ms, slowing as
// it nears 98), real where the browser reports it (file bytes sent), and for URL batches it
// follows (processed + failed) / total, capped at 98 until all are done. After success it waits
// 3000 ms (single text or file) or 500 ms before reporting completion.
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  UPLOAD_PROGRESS_CAP,
  UPLOAD_PROGRESS_TICK_MS,
  UPLOAD_SUCCESS_DELAY_DEFAULT_MS,
  UPLOAD_SUCCESS_DELAY_SINGLE_MS,
} from '@parla/shared/schemas/knowledge';

export type UploadStatus = 'idle' | 'normal' | 'success' | 'partial' | 'error';

export interface UploadState {
  status: UploadStatus;
  progress: number;
  /** Whether the progress is measured (bytes sent, items done) rather than simulated. */
  measured: boolean;
  message: string;
}

const IDLE: UploadState = { status: 'idle', progress: 0, measured: false, message: '' };

/** One simulated step: big at first, ever smaller towards the cap. */
export function nextSimulated(p: number): number {
  return Math.min(UPLOAD_PROGRESS_CAP, p + Math.max(0.2, (UPLOAD_PROGRESS_CAP - p) * 0.08));
}

export function useUploadProgress(onComplete: () => void) {
  const [state, setState] = useState<UploadState>(IDLE);
  const ticker = useRef<number | undefined>(undefined);
  const finisher = useRef<number | undefined>(undefined);
  const completeRef = useRef(onComplete);
  useEffect(() => {
    completeRef.current = onComplete;
  }, [onComplete]);

  const stopTicker = () => {
    window.clearInterval(ticker.current);
    ticker.current = undefined;
  };
  const simulate = useCallback(() => {
    stopTicker();
    ticker.current = window.setInterval(() => setState((s) => ({ ...s, progress: nextSimulated(s.progress) })), UPLOAD_PROGRESS_TICK_MS);
  }, []);

  useEffect(
    () => () => {
      stopTicker();
      window.clearTimeout(finisher.current);
    },
    [],
  );

  return {
    state,
    /** Starts the overlay; simulated unless `measured` (then call measure()). */
    start: useCallback(
      (opts: { measured?: boolean } = {}) => {
        window.clearTimeout(finisher.current);
        setState({ status: 'normal', progress: 0, measured: Boolean(opts.measured), message: '' });
        if (!opts.measured) simulate();
        else stopTicker();
      },
      [simulate],
    ),
    /** A measured fraction (0..1) of `share` percent of the bar; never goes backwards. */
    measure: useCallback((fraction: number, share = 100) => {
      setState((s) => ({ ...s, measured: true, progress: Math.max(s.progress, Math.min(UPLOAD_PROGRESS_CAP, fraction * share)) }));
    }, []),
    /** Switches to simulation from where the bar is (e.g. after the bytes are sent). */
    simulate,
    /** URL batches: (processed + failed) / total, capped until all are done. */
    batch: useCallback((processed: number, failed: number, total: number) => {
      const done = processed + failed;
      setState((s) => ({ ...s, measured: true, progress: done >= total ? 100 : Math.min(UPLOAD_PROGRESS_CAP, (done / total) * 100) }));
    }, []),
    succeed: useCallback((single: boolean) => {
      stopTicker();
      setState({ status: 'success', progress: 100, measured: true, message: '' });
      finisher.current = window.setTimeout(
        () => {
          setState(IDLE);
          completeRef.current();
        },
        single ? UPLOAD_SUCCESS_DELAY_SINGLE_MS : UPLOAD_SUCCESS_DELAY_DEFAULT_MS,
      );
    }, []),
    partial: useCallback((message: string) => {
      stopTicker();
      setState({ status: 'partial', progress: 100, measured: true, message });
    }, []),
    fail: useCallback((message: string) => {
      stopTicker();
      setState((s) => ({ ...s, status: 'error', message }));
    }, []),
    reset: useCallback(() => {
      stopTicker();
      window.clearTimeout(finisher.current);
      setState(IDLE);
    }, []),
  };
}

export type UploadProgress = ReturnType<typeof useUploadProgress>;
