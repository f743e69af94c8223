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
  onError?(error: string): void;
}

export class SpeechIn {
  private rec: Recognition | null = null;
  private wanted = false;

  constructor(private readonly language: string) {}

  start(h: ListenHandlers): boolean {
    const Ctor = ctor();
    if (!Ctor) return false;
    this.wanted = true;
    const rec = new Ctor();
    rec.lang = this.language;
    rec.continuous = true;
    rec.interimResults = true;
    rec.onresult = (e) => {
      for (let i = e.resultIndex; i < e.results.length; i++) {
        const r = e.results[i]!;
        const text = r[0].transcript.trim();
        if (!text) continue;
        if (r.isFinal) h.onText(text);
        else h.onInterim?.(text);
      }
    };
    rec.onerror = (e) => {
      if (e.error === 'not-allowed' || e.error === 'service-not-allowed' || e.error === 'network') {
        this.wanted = false;
        h.onError?.(e.error);
      }
    };
    // Recognition stops by itself after a pause; keep listening while the mic is on.
    rec.onend = () => {
      if (this.wanted) {
        try {
          rec.start();
        } catch {
          this.wanted = false;
        }
      }
    };
    try {
      rec.start();
    } catch {
      return false;
    }
    this.rec = rec;
    return true;
  }

  stop(): void {
    this.wanted = false;
    this.rec?.abort();
    this.rec = null;
  }
}
