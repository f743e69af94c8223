// Local stand-ins for third-party providers, speaking their real wire protocols on loopback.
// Each feature adds its own module under support/stand-ins/ and lists it here.
export interface StandIns {
  /** host:port pairs for OUTBOUND_ALLOW. */
  allow: string[];
  /** Extra server environment (e.g. LLM_BASE_URL pointing at a stand-in). */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startStandIns(): Promise<StandIns> {
  const started: StandIns[] = [];
  return {
    allow: started.flatMap((s) => s.allow),
    env: Object.assign({}, ...started.map((s) => s.env)),
    close: async () => {
      await Promise.all(started.map((s) => s.close()));
    },
  };
}
