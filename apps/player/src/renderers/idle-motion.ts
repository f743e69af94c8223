// The 3D figure's idle motion (decisions 116, 121): small head and neck movements, livelier while
// speaking, breathing that lifts the chest and the shoulders, a little sway of the spine and the
// arms, and of the hips for a full-body avatar. `pose(bone, x, y, z)` turns a bone from its rest
// by those Euler angles (radians). The livelier head while speaking (a wider sway and a nod) is
// for a GPU: in software WebGL every step of the head is a whole figure drawn by the CPU, and the
// head speaking moves as it does at rest (decision 128, amendment "a calmer head in software WebGL").
import { wobble } from './renderer';

type Pose = (bone: string, x: number, y: number, z: number) => void;

/** The pose at `t` seconds; `lively`: the head livelier while speaking. */
export function idleMotion(pose: Pose, t: number, speaking: boolean, full: boolean, lively = true): void {
  const talking = speaking && lively;
  const talk = talking ? 1.5 : 1;
  pose(
    'Head',
    wobble(t, 1, 0.6, 1.7) * 0.05 * talk + (talking ? Math.sin(t * 3.1) * 0.015 : 0),
    wobble(t, 2, 0.4, 1.1, 0.23) * 0.09 * talk,
    wobble(t, 3, 0.33, 0.9) * 0.03,
  );
  pose('Neck', wobble(t, 4, 0.5, 1.3) * 0.02, wobble(t, 5, 0.3, 0.8) * 0.03, 0);
  // Breathing: the chest swells and the shoulders rise a little, about every four seconds.
  const breath = Math.sin(t * 1.55);
  pose('Chest', breath * 0.012, 0, 0);
  pose('LeftShoulder', 0, 0, breath * 0.012);
  pose('RightShoulder', 0, 0, -breath * 0.012);
  pose('Spine', 0, wobble(t, 6, 0.25, 0.6) * 0.02, wobble(t, 7, 0.2, 0.5) * 0.012);
  pose('LeftUpperArm', 0, 0, wobble(t, 8, 0.5, 0.9) * 0.025);
  pose('RightUpperArm', 0, 0, wobble(t, 9, 0.5, 0.9) * 0.025);
  pose('LeftLowerArm', wobble(t, 10, 0.4, 1.0) * 0.03, 0, 0);
  pose('RightLowerArm', wobble(t, 11, 0.4, 1.0) * 0.03, 0, 0);
  if (full) pose('Hips', 0, wobble(t, 12, 0.2, 0.45) * 0.03, wobble(t, 13, 0.25, 0.5) * 0.012);
}
