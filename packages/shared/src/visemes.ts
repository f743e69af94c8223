// The 15 visemes of the Oculus naming used by browser 3D avatars in this field, in their usual
// order, and the morph-target names our GLB avatars carry. Zod-free: the player imports this.

export const VISEMES = ['sil', 'PP', 'FF', 'TH', 'DD', 'kk', 'CH', 'SS', 'nn', 'RR', 'aa', 'E', 'I', 'O', 'U'] as const;
export type Viseme = (typeof VISEMES)[number];

/** Morph target of a viseme in a GLB: `viseme_aa`. */
export function visemeMorphName(viseme: Viseme): `viseme_${Viseme}` {
  return `viseme_${viseme}`;
}

/** Every morph target a catalogue GLB face carries: the visemes, then blink and smile. */
export const FACE_MORPH_TARGETS = [...VISEMES.map(visemeMorphName), 'blink', 'smile'] as const;

export function isViseme(value: string): value is Viseme {
  return (VISEMES as readonly string[]).includes(value);
}
