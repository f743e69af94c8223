// Directional lighting presets for upper-body avatars (spec 2: lighting is for upper body).
import type { LightingPreset } from '@parla/shared/schemas/catalogue';

export interface LightScene {
  id: string;
  name: string;
  preset: LightingPreset;
}

export const LIGHT_SCENES: LightScene[] = [
  {
    id: 'light-soft-studio',
    name: 'Soft studio',
    preset: {
      ambient: { color: '#ffffff', intensity: 0.3 },
      hemisphere: { sky: '#eef3ff', ground: '#6b5a50', intensity: 0.9 },
      directional: [
        { color: '#fff4e8', intensity: 2.1, position: [1.5, 2.5, 2.5] },
        { color: '#cfe0ff', intensity: 0.8, position: [-2, 1.2, 1.5] },
        { color: '#ffffff', intensity: 0.9, position: [0, 2.5, -2.5] },
      ],
      exposure: 1.0,
    },
  },
  {
    id: 'light-warm-window',
    name: 'Warm window',
    // A window beside and in front of the face, with the room's warm bounce filling the other
    // side: a 2.8:1 ratio (it was a side light at 8:1, a hard line down the nose; face-light.ts).
    preset: {
      ambient: { color: '#ffe9d2', intensity: 0.35 },
      hemisphere: { sky: '#ffe2bf', ground: '#6a5040', intensity: 0.8 },
      directional: [
        { color: '#ffcf96', intensity: 2.4, position: [-2.2, 2.0, 2.2] },
        { color: '#ffe6cc', intensity: 0.9, position: [2.2, 1.0, 2.0] },
      ],
      exposure: 1.05,
    },
  },
  {
    id: 'light-cool-daylight',
    name: 'Cool daylight',
    preset: {
      ambient: { color: '#eaf2ff', intensity: 0.45 },
      hemisphere: { sky: '#dceaff', ground: '#8a8a80', intensity: 1.1 },
      directional: [
        { color: '#f2f7ff', intensity: 1.8, position: [0.5, 3, 2.5] },
        { color: '#ffffff', intensity: 0.6, position: [-1.5, 1, 2] },
      ],
      exposure: 1.0,
    },
  },
  {
    id: 'light-dramatic-rim',
    name: 'Dramatic rim',
    // The two rim lights behind draw the outline; a frontal key and a cool fill keep the face
    // itself soft (3.5:1; it was lit by the key alone, 18:1).
    preset: {
      ambient: { color: '#ffffff', intensity: 0.2 },
      hemisphere: { sky: '#6f7fa0', ground: '#3a2c22', intensity: 0.6 },
      directional: [
        { color: '#ffe0c0', intensity: 1.9, position: [1.6, 1.8, 2.4] },
        { color: '#c8d8ff', intensity: 0.9, position: [-2, 1.2, 2] },
        { color: '#8fc0ff', intensity: 3.2, position: [-1.5, 2.2, -2.5] },
        { color: '#ffb08a', intensity: 2.2, position: [1.8, 1.5, -2.2] },
      ],
      exposure: 1.1,
    },
  },
];
