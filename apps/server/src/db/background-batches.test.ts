// Background statements on PGlite sized by time (decision 222).
import { describe, expect, it } from 'vitest';
import { TimeBatches } from './background-batches';

describe('batches of background work sized by time', () => {
  it('sizes the next batch to the target from the time per row measured', () => {
    const sizes = new TimeBatches(250, 15, 1);
    sizes.took(1, 2); // 2 ms a row: 7 rows would fit, but a batch grows at most 1.5× at a time
    expect(sizes.size).toBe(2);
    for (let i = 0; i < 10; i++) sizes.took(sizes.size, sizes.size * 2);
    expect(sizes.size).toBe(7);
  });

  it('shrinks at once after a slow batch and grows back gradually', () => {
    const sizes = new TimeBatches(250, 15, 1);
    for (let i = 0; i < 10; i++) sizes.took(sizes.size, sizes.size * 1);
    expect(sizes.size).toBe(15);
    sizes.took(15, 150); // 10 ms a row
    expect(sizes.size).toBe(1);
    sizes.took(1, 1);
    expect(sizes.size).toBeLessThan(15);
  });

  it('never goes below one row or above the most rows allowed', () => {
    const sizes = new TimeBatches(5, 15, 1);
    sizes.took(1, 1000);
    expect(sizes.size).toBe(1);
    for (let i = 0; i < 20; i++) sizes.took(sizes.size, 0);
    expect(sizes.size).toBe(5);
  });
});
