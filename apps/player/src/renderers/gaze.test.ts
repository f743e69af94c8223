import { describe, expect, it } from 'vitest';
import { aim, gaze, MAX_YAW, Saccades } from './gaze';

/** A seeded generator, so the saccades are the same every run. */
function seeded(seed: number) {
  let s = seed;
  return () => ((s = (s * 16807) % 2147483647) - 1) / 2147483646;
}

describe('the 3D eyes', () => {
  it('look straight at a camera in front of them and turn towards one to the side', () => {
    const ahead = aim({ x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 2 });
    expect(ahead.yaw).toBeCloseTo(0);
    expect(ahead.pitch).toBeCloseTo(0);
    const left = aim({ x: 0, y: 0, z: 0 }, { x: 0.5, y: 0.2, z: 2 });
    expect(left.yaw).toBeGreaterThan(0.2);
    expect(left.pitch).toBeGreaterThan(0.05);
  });

  it('never turn further than the socket allows, even for a camera behind the head', () => {
    const behind = aim({ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: -2 });
    expect(Math.abs(behind.yaw)).toBeLessThanOrEqual(MAX_YAW);
    expect(Math.abs(gaze(behind, { yaw: 0.3, pitch: 0 }, 0).yaw)).toBeLessThanOrEqual(MAX_YAW);
  });

  it('jump to new points every second or two and hold still between jumps', () => {
    const s = new Saccades(seeded(7));
    const seen = new Set<string>();
    let still = 0;
    let prev = s.offset(0);
    for (let t = 16; t < 10_000; t += 16) {
      const o = s.offset(t);
      seen.add(`${o.yaw.toFixed(3)},${o.pitch.toFixed(3)}`);
      if (o.yaw === prev.yaw && o.pitch === prev.pitch) still++;
      prev = o;
    }
    // Several fixations in ten seconds, and most frames between the jumps unchanged.
    expect(seen.size).toBeGreaterThan(10);
    expect(still / (10_000 / 16)).toBeGreaterThan(0.8);
  });

  it('look a little down as the lids close', () => {
    expect(gaze({ yaw: 0, pitch: 0 }, { yaw: 0, pitch: 0 }, 1).pitch).toBeLessThan(0);
  });
});
