// The full-body avatars of the 3D catalogue in conversation (issue 18, item 11): framing in a wide
// and a 9:16 stage, idle motion; the upper-body avatars, the dial page and the open mouth are in
// faces.spec.ts (support/faces.ts holds the checks).
import { test } from './support/test';
import { framingTests } from './support/faces';

test.describe('the 3D catalogue faces, full body', () => {
  test.describe.configure({ timeout: 120_000 });
  framingTests((a) => a.id.startsWith('fb-'));
});
