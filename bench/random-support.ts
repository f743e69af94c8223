// A seeded pseudo-random source for the benches' synthetic data (the same data in every run).
// Mulberry32, in 32-bit integer arithmetic: the LCG the benches used before multiplied in
// floating point, lost the low bits and cycled after 10,466 draws, so "100,000 chunks" repeated
// a few hundred distinct ones and 271 items held duplicates the product now refuses.

/** Returns a function giving numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
