import { describe, expect, it } from 'vitest';
import { INTERRUPT_OPTIONS, REALTIME_VAD_OPTIONS, VAD_OPTIONS, defaultsOf } from './providers';
import { presetMatching, TURN_TAKING_PRESETS } from './turn-taking-presets';

describe('turn-taking presets', () => {
  it('calls the defaults balanced, in both kinds of mode', () => {
    const interrupt_handling = defaultsOf(INTERRUPT_OPTIONS);
    expect(presetMatching({ interrupt_handling, vad_options: defaultsOf(VAD_OPTIONS) }, false)).toBe('balanced');
    expect(presetMatching({ interrupt_handling, vad_options: defaultsOf(REALTIME_VAD_OPTIONS) }, true)).toBe('balanced');
  });
  it('reads typed numbers as numbers, and a changed one as custom', () => {
    const p = TURN_TAKING_PRESETS.find((x) => x.id === 'patient')!;
    const vad_options = { ...defaultsOf(VAD_OPTIONS), ...Object.fromEntries(Object.entries(p.vad).map(([k, v]) => [k, String(v)])) };
    expect(presetMatching({ interrupt_handling: p.interrupt_handling, vad_options }, false)).toBe('patient');
    expect(
      presetMatching({ interrupt_handling: p.interrupt_handling, vad_options: { ...vad_options, min_silence_duration: '0.9' } }, false),
    ).toBeNull();
  });
  it('only sets keys the forms know, with values their checks accept', () => {
    const vadKeys = new Set(VAD_OPTIONS.map((o) => o.key));
    const rtKeys = new Set(REALTIME_VAD_OPTIONS.map((o) => o.key));
    for (const p of TURN_TAKING_PRESETS) {
      for (const [k, v] of Object.entries(p.vad)) expect(vadKeys.has(k) && v > 0, `${p.id}.${k}`).toBe(true);
      for (const [k, v] of Object.entries(p.realtimeVad)) expect(rtKeys.has(k) && v > 0, `${p.id}.${k}`).toBe(true);
      expect(p.interrupt_handling.min_interruption_duration).toBeGreaterThan(0);
    }
  });
});
