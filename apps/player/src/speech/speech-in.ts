// Speech in: the browser's speech recognition, where it exists (the mic button is hidden
// where it does not). Final results are sent as chat text.
interface RecognitionResult {
  isFinal: boolean;
  0: { transcript: string };
}
interface RecognitionEvent {
  resultIndex: number;
  results: ArrayLike<RecognitionResult>;
}
interface Recognition {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((e: RecognitionEvent) => void) | null;
  onerror: ((e: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
type RecognitionCtor = new () => Recognition;

function ctor(): RecognitionCtor | null {
  const w = window as unknown as { SpeechRecognition?: RecognitionCtor; webkitSpeechRecognition?: RecognitionCtor };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

export function speechRecognitionAvailable(): boolean {
  return typeof window !== 'undefined' && ctor() !== null;
}

export interface ListenHandlers {
  onText(text: string): void;
  onInterim?(text: string): void;
  /** Recognition cannot go on (no microphone, permission refused or lost, no service): the
   *  listener has stopped itself; the mic must show off. */
  onError?(error: string): void;
}

/** Errors after which listening cannot go on by itself. `no-speech` and `aborted` are not. */
const FATAL = new Set(['audio-capture', 'not-allowed', 'service-not-allowed', 'network', 'language-not-supported', 'bad-grammar']);
/** A session that ends sooner than this without hearing anything counts as a failed start. */
const QUICK_END_MS = 1000;
/** Failed starts in a row before the listener gives up. */
export const MAX_QUICK_RESTARTS = 3;

export function restartDelay(n: number): number {
  return 250 * 2 ** n;
}

/** Whether a microphone opens here (it is closed again at once). */
/** Whether a microphone gives sound: it opens, and within about half a second one of its samples
 *  is not exactly zero. A real microphone always has a noise floor; a capture device that opens
 *  but cannot read (Chromium's fake device on a missing file, a dead driver) gives exact silence,
 *  and then "No microphone was found" is the truth, not a missing recognition service. */
async function openMicrophone(): Promise<boolean> {
  if (typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia) return false;
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  } catch {
    return false;
  }
  try {
    if (typeof AudioContext === 'undefined') return true;
    const ctx = new AudioContext();
    try {
      void ctx.resume().catch(() => undefined);
      const analyser = ctx.createAnalyser();
      ctx.createMediaStreamSource(stream).connect(analyser);
      const samples = new Float32Array(analyser.fftSize);
      for (let i = 0; i < 6; i++) {
        await new Promise((r) => setTimeout(r, 100));
        analyser.getFloatTimeDomainData(samples);
        if (samples.some((v) => v !== 0)) return true;
      }
      return false;
    } finally {
      void ctx.close();
    }
  } finally {
    stream.getTracks().forEach((t) => t.stop());
  }
}

export class SpeechIn {
  private rec: Recognition | null = null;
  private wanted = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Sessions in a row that ended quickly without a result. */
  private quickEnds = 0;

  constructor(
    private readonly language: string,
    private readonly Recognition: RecognitionCtor | null = ctor(),
    private readonly microphoneWorks: () => Promise<boolean> = openMicrophone,
  ) {}

  start(h: ListenHandlers): boolean {
    const Ctor = this.Recognition;
    if (!Ctor) return false;
    this.wanted = true;
    const rec = new Ctor();
    rec.lang = this.language;
    rec.continuous = true;
    rec.interimResults = true;
    let startedAt = Date.now();
    let heard = false;
    const fail = (error: string) => {
      if (!this.wanted) return;
      this.stop();
      h.onError?.(error);
    };
    rec.onresult = (e) => {
      heard = true;
      this.quickEnds = 0;
      for (let i = e.resultIndex; i < e.results.length; i++) {
        const r = e.results[i]!;
        const text = r[0].transcript.trim();
        if (!text) continue;
        if (r.isFinal) h.onText(text);
        else h.onInterim?.(text);
      }
    };
    rec.onerror = (e) => {
      // Chromium says audio-capture also when its recognition service is missing (no vendor key,
      // no connection) although the microphone works: the microphone itself tells which it is.
      if (e.error === 'audio-capture') void this.serviceOrMicrophone().then(fail);
      else if (FATAL.has(e.error)) fail(e.error);
    };
    // Recognition stops by itself after a pause; keep listening while the mic is on. A session
    // that ends at once, hearing nothing, is a failure in disguise: back off, then give up.
    rec.onend = () => {
      if (!this.wanted) return;
      const quick = !heard && Date.now() - startedAt < QUICK_END_MS;
      this.quickEnds = quick ? this.quickEnds + 1 : 0;
      if (this.quickEnds > MAX_QUICK_RESTARTS) return void this.serviceOrMicrophone().then(fail);
      heard = false;
      this.timer = setTimeout(
        () => {
          if (!this.wanted) return;
          startedAt = Date.now();
          try {
            rec.start();
          } catch {
            fail('audio-capture');
          }
        },
        quick ? restartDelay(this.quickEnds - 1) : 0,
      );
    };
    try {
      rec.start();
    } catch {
      this.wanted = false;
      return false;
    }
    this.rec = rec;
    return true;
  }

  /** 'no-service' when the microphone opens (the recognition service is what is missing), else 'audio-capture'. */
  private async serviceOrMicrophone(): Promise<string> {
    return (await this.microphoneWorks().catch(() => false)) ? 'no-service' : 'audio-capture';
  }

  stop(): void {
    this.wanted = false;
    clearTimeout(this.timer);
    const rec = this.rec;
    this.rec = null;
    try {
      rec?.abort();
    } catch {
      // Already stopped.
    }
  }
}
