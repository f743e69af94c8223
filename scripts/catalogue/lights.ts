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
    preset: {
      ambient: { color: '#ffe9d2', intensity: 0.2 },
      hemisphere: { sky: '#ffe2bf', ground: '#4a3a30', intensity: 0.5 },
      directional: [
        { color: '#ffcf96', intensity: 3.0, position: [-3, 1.8, 1.2] },
        { color: '#9fb6ff', intensity: 0.35, position: [2, 1, 2] },
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
    preset: {
      ambient: { color: '#ffffff', intensity: 0.08 },
      hemisphere: { sky: '#6f7fa0', ground: '#201812', intensity: 0.35 },
      directional: [
        { color: '#ffe0c0', intensity: 1.6, position: [2.2, 1.6, 1.8] },
        { color: '#8fc0ff', intensity: 3.2, position: [-1.5, 2.2, -2.5] },
        { color: '#ffb08a', intensity: 2.2, position: [1.8, 1.5, -2.2] },
      ],
      exposure: 1.1,
    },
  },
];
