import { describe, expect, it } from 'vitest';
import { ReplyClock } from './reply-clock';

function setup() {
  const context = { state: 'suspended', currentTime: 0 };
  let wall = 100;
  let runs = 0;
  const clock = new ReplyClock(
    context,
    () => wall,
    () => runs++,
  );
  return {
    context,
    clock,
    tick: (s: number) => (wall += s),
    runs: () => runs,
  };
}

describe('ReplyClock', () => {
  it('follows the wall clock while the context stands still (autoplay refused, no device)', () => {
    const { clock, tick } = setup();
    expect(clock.now()).toBe(0);
    tick(2.5);
    expect(clock.now()).toBeCloseTo(2.5);
    expect(clock.audible).toBe(false);
  });

  it('goes on from where it was when the context starts running, and says so once', () => {
    const { context, clock, tick, runs } = setup();
    clock.now();
    tick(20); // the greeting was shown on the wall clock for 20 s before the visitor's first gesture
    expect(clock.now()).toBeCloseTo(20);
    context.state = 'running';
    context.currentTime = 0.05;
    expect(clock.now()).toBeCloseTo(20);
    expect(runs()).toBe(1);
    context.currentTime = 1.05;
    expect(clock.now()).toBeCloseTo(21);
    // A chunk placed 0.5 s ahead on the clock starts 0.5 s ahead on the context's own time,
    // not 21.5 s into it (the reply that played half a minute late).
    expect(clock.contextTime(21.5)).toBeCloseTo(1.55);
    expect(clock.contextTime(10)).toBeCloseTo(1.05);
    expect(runs()).toBe(1);
  });

  it('keeps going on the wall clock when a running context stops, and never runs backwards', () => {
    const { context, clock, tick, runs } = setup();
    context.state = 'running';
    context.currentTime = 3;
    expect(clock.now()).toBe(3);
    expect(runs()).toBe(0); // running from the first look: nothing was placed on another clock
    context.state = 'suspended';
    expect(clock.now()).toBeCloseTo(3);
    tick(1);
    expect(clock.now()).toBeCloseTo(4);
    context.state = 'running';
    expect(clock.now()).toBeCloseTo(4);
    expect(runs()).toBe(1);
  });
});
