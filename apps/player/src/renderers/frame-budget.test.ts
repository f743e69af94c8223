import { describe, expect, it } from 'vitest';
import { FramePacer, frameInterval, readRenderMode, threeProfile, type RenderProfile } from './frame-budget';

/** Frames drawn in one second of a 60 Hz display's animation frames. */
function drawnInASecond(profile: RenderProfile, speaking: boolean, hz = 60): number {
  const pacer = new FramePacer();
  let drawn = 0;
  for (let i = 0; i < hz; i++) if (pacer.due((i * 1000) / hz, frameInterval(profile, speaking))) drawn++;
  return drawn;
}

describe('frame budget', () => {
  it('draws a 2D portrait 30 times a second, a GPU face at every display frame, a software face 24 times speaking and 8 idle', () => {
    expect(drawnInASecond('image', true)).toBe(30);
    expect(drawnInASecond('image', false)).toBe(30);
    expect(drawnInASecond('gpu', true)).toBe(60);
    expect(drawnInASecond('gpu', false, 144)).toBe(144);
    expect(drawnInASecond('software', true)).toBe(24);
    expect(drawnInASecond('software', false)).toBe(8);
    // A 144 Hz display draws the same number of frames, not more.
    expect(drawnInASecond('image', false, 144)).toBe(30);
    expect(drawnInASecond('software', true, 144)).toBe(24);
    // render=full: every display frame, whatever the profile.
    expect(frameInterval('image', false, 'full')).toBe(0);
    expect(frameInterval('software', false, 'full')).toBe(0);
  });

  it('a page that fell behind (a slow frame, a hidden tab) draws at once, then keeps its pace without a burst', () => {
    const pacer = new FramePacer();
    const interval = frameInterval('software', false);
    expect(pacer.due(0, interval)).toBe(true);
    expect(pacer.due(5000, interval)).toBe(true);
    expect(pacer.due(5000 + 1000 / 60, interval)).toBe(false);
    expect(pacer.due(5000 + interval, interval)).toBe(true);
  });

  it('a frame a display frame late keeps the cadence, so 24 a second stay 24', () => {
    const pacer = new FramePacer();
    const interval = frameInterval('software', true);
    const tick = 1000 / 60;
    let drawn = 0;
    // 10 s of a 60 Hz display; twice a second the page misses two animation frames (busy).
    for (let i = 0; i < 600; i++) if (i % 30 !== 5 && i % 30 !== 6 && pacer.due(i * tick, interval)) drawn++;
    expect(drawn).toBeGreaterThanOrEqual(239);
  });

  it('a frame held up for more than an interval (a whole figure drawn on a busy machine) loses no frame', () => {
    const pacer = new FramePacer();
    const interval = frameInterval('software', true);
    const tick = 1000 / 60;
    let drawn = 0;
    // 10 s of a 60 Hz display; once a second the page is held for 70 ms (four animation frames).
    for (let i = 0; i < 600; i++) if ((i % 60 < 10 || i % 60 > 13) && pacer.due(i * tick, interval)) drawn++;
    expect(drawn).toBeGreaterThanOrEqual(239);
  });

  it('says how long the loop may sleep until the next frame, and starts a new rate at once', () => {
    const pacer = new FramePacer();
    expect(pacer.untilDue(0)).toBe(0);
    const idle = frameInterval('software', false);
    expect(pacer.due(1000, idle)).toBe(true);
    // The next idle frame is due 125 ms on, drawn up to 4 ms early.
    expect(pacer.untilDue(1010)).toBeCloseTo(idle - 10 - 4);
    expect(pacer.untilDue(1000 + idle)).toBe(0);
    // Speech starts 20 ms after an idle frame: its first frame is drawn at once, then 24 a second.
    pacer.restart();
    const speaking = frameInterval('software', true);
    expect(pacer.due(1020, speaking)).toBe(true);
    expect(pacer.due(1020 + 1000 / 60, speaking)).toBe(false);
    expect(pacer.untilDue(1020)).toBeCloseTo(speaking - 4);
  });

  it('picks the light profile in software WebGL unless the page asks for full rendering, and reads only known modes', () => {
    expect(threeProfile('auto', () => true)).toBe('software');
    expect(threeProfile('auto', () => false)).toBe('gpu');
    expect(threeProfile('full', () => true)).toBe('gpu');
    expect(threeProfile('light', () => false)).toBe('software');
    expect(readRenderMode('full')).toBe('full');
    expect(readRenderMode('light')).toBe('light');
    expect(readRenderMode('FULL')).toBe('auto');
    expect(readRenderMode(null)).toBe('auto');
  });
});
