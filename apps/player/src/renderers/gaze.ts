// Where the 3D eyes look: at the user (the camera) most of the time, with saccades — quick
// jumps to a nearby point every second or two, now and then a glance away — and a little down
// while the lids close. Angles in radians; yaw turns to the character's left, pitch up.

interface Look {
  yaw: number;
  pitch: number;
}

/** How far an eye turns in its socket at most (the iris stays inside the lids). */
export const MAX_YAW = 0.32;
const MAX_PITCH = 0.18;
/** A saccade takes this long (real ones: 30–80 ms). */
const JUMP_MS = 60;

const clamp = (v: number, m: number) => Math.max(-m, Math.min(m, v));

/** The direction from an eye at `eye` to a point `to`, both in the head's space (+Z forward). */
export function aim(eye: { x: number; y: number; z: number }, to: { x: number; y: number; z: number }): Look {
  const dx = to.x - eye.x,
    dy = to.y - eye.y,
    dz = to.z - eye.z;
  return { yaw: clamp(Math.atan2(dx, Math.max(1e-6, dz)), MAX_YAW), pitch: clamp(Math.atan2(dy, Math.hypot(dx, dz)), MAX_PITCH) };
}

export class Saccades {
  private from: Look = { yaw: 0, pitch: 0 };
  private to: Look = { yaw: 0, pitch: 0 };
  private jumpAt = -1;
  private next = 0;

  constructor(private readonly random: () => number = Math.random) {}

  /** The offset from the looked-at point now. `speaking` keeps the eyes on the user more. */
  offset(nowMs: number, speaking = false): Look {
    if (this.next === 0) this.next = nowMs + 300 + this.random() * 900;
    if (nowMs >= this.next) {
      this.from = this.current(nowMs);
      const away = this.random() < (speaking ? 0.12 : 0.25);
      // Small fixations around the user's face; sometimes a glance aside (thinking, listening).
      const yaw = (this.random() - 0.5) * (away ? 0.4 : 0.09);
      const pitch = (this.random() - 0.5) * (away ? 0.2 : 0.05);
      this.to = { yaw, pitch };
      this.jumpAt = nowMs;
      this.next = nowMs + (away ? 500 + this.random() * 700 : 700 + this.random() * 1800);
    }
    return this.current(nowMs);
  }

  private current(nowMs: number): Look {
    if (this.jumpAt < 0) return this.to;
    const k = Math.min(1, (nowMs - this.jumpAt) / JUMP_MS);
    const e = k * k * (3 - 2 * k);
    return { yaw: this.from.yaw + (this.to.yaw - this.from.yaw) * e, pitch: this.from.pitch + (this.to.pitch - this.from.pitch) * e };
  }
}

/** The eye's final direction: the aim at the user plus the saccade, lowered while blinking. */
export function gaze(at: Look, offset: Look, blink: number): Look {
  return { yaw: clamp(at.yaw + offset.yaw, MAX_YAW), pitch: clamp(at.pitch + offset.pitch - 0.12 * blink, MAX_PITCH) };
}
