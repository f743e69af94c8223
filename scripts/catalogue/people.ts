// The people of the default catalogue: six illustrated portraits, four upper-body and two
// full-body 3D characters. Varied skin tones, hair, eyes and clothes; names are ours.
import type { VoiceGender } from '@parla/shared/schemas/catalogue';

export type HairStyle =
  'afro' | 'sideSwept' | 'bob' | 'cropped' | 'longWavy' | 'buzz' | 'ponytail' | 'longStraight' | 'curlyShort' | 'headscarf' | 'quiff';

export type Outfit = 'blazer' | 'sweater' | 'blouse' | 'scoop' | 'vneck' | 'hoodie' | 'tee' | 'shirt';

export interface Person {
  id: string;
  name: string;
  type: 'image' | '2d' | '3d';
  voiceGender: VoiceGender;
  skin: string;
  lips: string;
  iris: string;
  hair: { style: HairStyle; color: string };
  brow: { color: string; weight: number };
  outfit: { kind: Outfit; main: string; accent: string; trousers?: string; shoes?: string };
  /** Shape factors around 1. */
  face: { width: number; jaw: number; eyeSize: number; lipFullness: number; noseWidth: number };
  feminine: boolean;
  extras: { glasses?: string; beard?: 'stubble' | 'full'; earrings?: string; necklace?: string; scarf?: string };
  /** Preview backdrop. */
  backdrop: string;
}

const face = (p: Partial<Person['face']> = {}): Person['face'] => ({ width: 1, jaw: 1, eyeSize: 1, lipFullness: 1, noseWidth: 1, ...p });

export const IMAGE_PEOPLE: Person[] = [
  {
    id: 'img-amara',
    name: 'Amara',
    type: 'image',
    voiceGender: 'female',
    skin: '#8a5636',
    lips: '#7a3b32',
    iris: '#3b2314',
    hair: { style: 'afro', color: '#1f1410' },
    brow: { color: '#1c120d', weight: 1 },
    outfit: { kind: 'scoop', main: '#e2a72e', accent: '#b9801a' },
    face: face({ width: 0.98, jaw: 0.92, eyeSize: 1.05, lipFullness: 1.25, noseWidth: 1.15 }),
    feminine: true,
    extras: { earrings: '#e8c35a', necklace: '#e8c35a' },
    backdrop: '#f3e3c3',
  },
  {
    id: 'img-liam',
    name: 'Liam',
    type: 'image',
    voiceGender: 'male',
    skin: '#f0c6a4',
    lips: '#c07a6c',
    iris: '#4a78a8',
    hair: { style: 'sideSwept', color: '#6b4a2e' },
    brow: { color: '#5a3d25', weight: 1.15 },
    outfit: { kind: 'blazer', main: '#26324f', accent: '#f4f6f8' },
    face: face({ width: 1.02, jaw: 1.1, lipFullness: 0.85 }),
    feminine: false,
    extras: { beard: 'stubble' },
    backdrop: '#d9e4ef',
  },
  {
    id: 'img-mei',
    name: 'Mei',
    type: 'image',
    voiceGender: 'female',
    skin: '#eec9a6',
    lips: '#c0605c',
    iris: '#2c1c14',
    hair: { style: 'bob', color: '#15110f' },
    brow: { color: '#1d1612', weight: 0.85 },
    outfit: { kind: 'blouse', main: '#2a8c8c', accent: '#1f6b6b' },
    face: face({ width: 0.95, jaw: 0.9, eyeSize: 0.95, lipFullness: 1, noseWidth: 0.9 }),
    feminine: true,
    extras: {},
    backdrop: '#dcefe9',
  },
  {
    id: 'img-rahul',
    name: 'Rahul',
    type: 'image',
    voiceGender: 'male',
    skin: '#b47a52',
    lips: '#8a4a3c',
    iris: '#2e1c10',
    hair: { style: 'cropped', color: '#16100c' },
    brow: { color: '#140d09', weight: 1.25 },
    outfit: { kind: 'sweater', main: '#8d99a6', accent: '#6f7b88' },
    face: face({ width: 1.03, jaw: 1.08, lipFullness: 1.05, noseWidth: 1.1 }),
    feminine: false,
    extras: { glasses: '#2a2a2e', beard: 'full' },
    backdrop: '#e6e1f0',
  },
  {
    id: 'img-sofia',
    name: 'Sofia',
    type: 'image',
    voiceGender: 'female',
    skin: '#e0ac84',
    lips: '#b8504c',
    iris: '#5d7a3a',
    hair: { style: 'longWavy', color: '#7a3420' },
    brow: { color: '#5a2a1a', weight: 0.95 },
    outfit: { kind: 'vneck', main: '#e0705a', accent: '#b85440' },
    face: face({ width: 0.97, jaw: 0.93, eyeSize: 1.05, lipFullness: 1.1 }),
    feminine: true,
    extras: { earrings: '#e6c46a' },
    backdrop: '#f6dfd8',
  },
  {
    id: 'img-kofi',
    name: 'Kofi',
    type: 'image',
    voiceGender: 'male',
    skin: '#5e3a24',
    lips: '#5a2e26',
    iris: '#24150c',
    hair: { style: 'buzz', color: '#0f0b09' },
    brow: { color: '#0e0907', weight: 1.1 },
    outfit: { kind: 'hoodie', main: '#3f7d4e', accent: '#2f6240' },
    face: face({ width: 1.04, jaw: 1.12, lipFullness: 1.2, noseWidth: 1.2 }),
    feminine: false,
    extras: {},
    backdrop: '#dbe9d6',
  },
];

export const UPPER_BODY_PEOPLE: Person[] = [
  {
    id: 'ub-noah',
    name: 'Noah',
    type: '2d',
    voiceGender: 'male',
    skin: '#f2c9a8',
    lips: '#c47c6e',
    iris: '#4f86b8',
    hair: { style: 'quiff', color: '#c9a063' },
    brow: { color: '#9a7444', weight: 1 },
    outfit: { kind: 'shirt', main: '#f2f4f7', accent: '#3d5a80' },
    face: face({ jaw: 1.08 }),
    feminine: false,
    extras: {},
    backdrop: '#dfe8f2',
  },
  {
    id: 'ub-aisha',
    name: 'Aisha',
    type: '2d',
    voiceGender: 'female',
    skin: '#a8704a',
    lips: '#8e4a40',
    iris: '#3a2414',
    hair: { style: 'headscarf', color: '#6d3b7a' },
    brow: { color: '#1e130d', weight: 0.95 },
    outfit: { kind: 'blouse', main: '#ece3d6', accent: '#c9bba6' },
    face: face({ width: 0.96, jaw: 0.9, eyeSize: 1.05, lipFullness: 1.15 }),
    feminine: true,
    extras: {},
    backdrop: '#efe3f2',
  },
  {
    id: 'ub-hana',
    name: 'Hana',
    type: '2d',
    voiceGender: 'female',
    skin: '#f1d0b0',
    lips: '#c66662',
    iris: '#2a1a12',
    hair: { style: 'longStraight', color: '#17120f' },
    brow: { color: '#1b1410', weight: 0.85 },
    outfit: { kind: 'blazer', main: '#3a3f47', accent: '#f7f3ee' },
    face: face({ width: 0.95, jaw: 0.9, eyeSize: 0.95, noseWidth: 0.9 }),
    feminine: true,
    extras: { earrings: '#dcdcdc' },
    backdrop: '#e8e6f0',
  },
  {
    id: 'ub-diego',
    name: 'Diego',
    type: '2d',
    voiceGender: 'male',
    skin: '#c8905f',
    lips: '#9a5646',
    iris: '#3d2614',
    hair: { style: 'curlyShort', color: '#22160f' },
    brow: { color: '#1f140d', weight: 1.2 },
    outfit: { kind: 'sweater', main: '#a3472f', accent: '#82361f' },
    face: face({ width: 1.04, jaw: 1.12, lipFullness: 1.05, noseWidth: 1.1 }),
    feminine: false,
    extras: { beard: 'full' },
    backdrop: '#f2e2d6',
  },
];

export const FULL_BODY_PEOPLE: Person[] = [
  {
    id: 'fb-maya',
    name: 'Maya',
    type: '3d',
    voiceGender: 'female',
    skin: '#96603c',
    lips: '#7e3f34',
    iris: '#35200f',
    hair: { style: 'ponytail', color: '#1a110c' },
    brow: { color: '#170f0a', weight: 1 },
    outfit: { kind: 'blazer', main: '#2f5d8a', accent: '#f1eee8', trousers: '#2b2d33', shoes: '#1c1c1f' },
    face: face({ width: 0.96, jaw: 0.9, eyeSize: 1.05, lipFullness: 1.2, noseWidth: 1.1 }),
    feminine: true,
    extras: { earrings: '#e8c35a' },
    backdrop: '#dde6ee',
  },
  {
    id: 'fb-ethan',
    name: 'Ethan',
    type: '3d',
    voiceGender: 'male',
    skin: '#e8b793',
    lips: '#b56e5e',
    iris: '#5b6e46',
    hair: { style: 'sideSwept', color: '#3a2618' },
    brow: { color: '#2f1f14', weight: 1.15 },
    outfit: { kind: 'tee', main: '#d8dde3', accent: '#4d6a88', trousers: '#4d6a88', shoes: '#e9e9ea' },
    face: face({ jaw: 1.1 }),
    feminine: false,
    extras: { beard: 'stubble' },
    backdrop: '#e3ece3',
  },
];
