// How the player follows a conversation the server or the network ended (conversation/ending.ts):
// the host page is told (`disconnected`, `reconnecting`), transient drops reconnect with backoff,
// everything else shows what happened with "Start again".
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { describeEnd, RECONNECT_ATTEMPTS, reconnectDelay, type ConversationEnd, type EndFacts } from '../conversation/ending';
import type { HostBridge } from '../host/host-bridge';

export interface ConversationEndState {
  /** What to show, once the player has stopped trying (null while live or reconnecting). */
  ended: ConversationEnd | null;
  /** The reconnect attempt under way (0: none). */
  reconnecting: number;
  /** The conversation closed by itself. */
  onEnded(facts: EndFacts): void;
  /** A conversation is ready again: the attempts count from zero. */
  onReady(): void;
  /** The user starts again or hangs up: nothing pending stays. */
  reset(): void;
}

export function useConversationEnd(bridge: RefObject<HostBridge | null>, reconnect: () => void): ConversationEndState {
  const [ended, setEnded] = useState<ConversationEnd | null>(null);
  const [reconnecting, setReconnecting] = useState(0);
  const attempts = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const reconnectRef = useRef(reconnect);
  useEffect(() => {
    reconnectRef.current = reconnect;
  }, [reconnect]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onEnded = useCallback(
    (facts: EndFacts) => {
      const end = describeEnd(facts);
      const retry = end.retry === 'auto' && attempts.current < RECONNECT_ATTEMPTS;
      // A reconnect attempt that fails is not news to the host page; the end of a conversation is.
      if (facts.started || !retry) bridge.current?.emit('disconnected', { reason: end.reason, code: facts.code, message: end.message });
      if (retry) {
        const attempt = ++attempts.current;
        setReconnecting(attempt);
        bridge.current?.emit('reconnecting', { reason: end.reason, attempt });
        clearTimeout(timer.current);
        timer.current = setTimeout(() => reconnectRef.current(), reconnectDelay(attempt - 1));
        return;
      }
      attempts.current = 0;
      setReconnecting(0);
      setEnded(end.retry === 'auto' ? { ...end, message: `${end.message} Reconnecting did not work.`, retry: 'manual' } : end);
    },
    [bridge],
  );

  const onReady = useCallback(() => {
    attempts.current = 0;
    setReconnecting(0);
  }, []);

  const reset = useCallback(() => {
    clearTimeout(timer.current);
    attempts.current = 0;
    setReconnecting(0);
    setEnded(null);
  }, []);

  return { ended, reconnecting, onEnded, onReady, reset };
}
