// Hostile "own 3D avatar" files (issue 36 item 1, decision 123). Each breaks one rule: an
// accessor of a billion zeroed vertices, an accessor or buffer view past what contains it, a
// meshopt view that decodes to 1 GB, a PNG whose header says 16384 × 16384, a JSON chunk that
// claims 2 GB, JSON nested 100,000 deep, a node tree with a loop, a texture outside the file,
// a Draco-only model, a file over 25 MB. Each fails its own request with its own message, the
// avatar keeps what it had, an honest model saved beside them works, and /api/health answers
// within a second throughout (the model is read in a child process, not on the event loop).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MB, UPLOAD_LIMITS } from '@parla/shared/limits';
import { OWN_MODEL_APPEARANCE, type Avatar } from '@parla/shared/schemas/avatar';
import { SubscriptionType } from '@parla/shared/plans';
import { joinGlb, splitGlb } from '../../../../scripts/catalogue/own-models';
import { checkModelInChild, MODEL_CHECK_FAILED } from '../../src/modules/avatars/own-model.check';
import { createCustomer, type TestAccount } from '../accounts';
import { save } from '../avatar-requests';
import { createTestServer, type TestServer } from '../harness';
import { testModels } from '../own-models';
import { expectHealthy, watchHealth } from './health-watchdog';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let server: TestServer;
let base: string;
let owner: TestAccount;

beforeAll(async () => {
  server = await createTestServer();
  base = await server.listen();
  owner = await createCustomer(server, 'model-bomber');
  await server.ctx.db.updateTable('users').set({ subscription_type: SubscriptionType.ENTERPRISE }).where('id', '=', owner.id).execute();
}, 120_000);
afterAll(() => server?.close());

/** A glTF whose extras nest 100,000 arrays deep, inside the JSON size cap. */
function deepJson(): Buffer {
  const { bin } = splitGlb(testModels().talking.oculus);
  const glb = joinGlb({}, bin);
  const depth = 100_000;
  const text = Buffer.from(`{"asset":{"version":"2.0"},"extras":${'['.repeat(depth)}${']'.repeat(depth)}}`);
  const head = Buffer.alloc(20);
  head.write('glTF', 0, 'latin1');
  head.writeUInt32LE(2, 4);
  head.writeUInt32LE(20 + text.length + (glb.length - 20 - glb.readUInt32LE(12)), 8);
  head.writeUInt32LE(text.length, 12);
  head.writeUInt32LE(0x4e4f534a, 16);
  return Buffer.concat([head, text, glb.subarray(20 + glb.readUInt32LE(12))]);
}

const EXPECTED: Record<string, RegExp> = {
  accessorCountBomb: /accessor of 1000000000 elements; at most 4000000/,
  accessorPastView: /an accessor reads past the end of its buffer view/,
  viewPastBuffer: /a buffer view lies outside its buffer/,
  meshoptSizeBomb: /needs more than 256 MB of memory once loaded/,
  textureBomb: /16384 × 16384 px; at most 4096 × 4096/,
  jsonLengthLie: /JSON is 2147483647 bytes; at most 4194304/,
  nodeLoop: /node tree has a loop/,
  outsideFile: /must be self-contained/,
  dracoRequired: /KHR_draco_mesh_compression, which the player cannot load/,
  deepJson: /no skinned mesh found/,
};

describe('hostile own 3D avatars', () => {
  it('refuses each hostile model in its own request with its own message, keeps the avatar as it was, and answers /api/health within a second throughout', async () => {
    const honest = await save(server, owner.token, { name: 'Honest', dhType: '2d', appearanceId: OWN_MODEL_APPEARANCE }, [
      { field: 'avatarModel', data: testModels().talking.oculus },
    ]);
    expect(honest.statusCode, honest.body).toBe(200);
    const a = honest.json().agent as Avatar;

    const files = { ...testModels().hostile, deepJson: deepJson() };
    expect(Object.keys(files).sort()).toEqual(Object.keys(EXPECTED).sort());
    const watch = watchHealth(base);
    const answers: Record<string, { status: number; body: string }> = {};
    for (const [name, data] of Object.entries(files)) {
      const res = await save(server, owner.token, { ...a, appearanceId: OWN_MODEL_APPEARANCE }, [{ field: 'avatarModel', data }]);
      answers[name] = { status: res.statusCode, body: res.body };
    }
    // A second honest model beside the bombs is still read.
    const after = await save(server, owner.token, { ...a, appearanceId: OWN_MODEL_APPEARANCE }, [
      { field: 'avatarModel', data: testModels().talking.vrm1 },
    ]);
    expectHealthy(await watch.stop(), 'hostile models');

    for (const [name, pattern] of Object.entries(EXPECTED)) {
      expect(answers[name]!.status, `${name}: ${answers[name]!.body}`).toBe(400);
      expect(answers[name]!.body, name).toMatch(pattern);
    }
    expect(after.statusCode, after.body).toBe(200);
    expect((after.json().agent as Avatar).ownModel!.format).toBe('vrm1');
    // Nothing of a refused file is kept: one model file for the avatar.
    const kept = await server.ctx.db
      .selectFrom('avatar_media')
      .select('id')
      .where('avatar_id', '=', a.id)
      .where('list', '=', 'model')
      .execute();
    expect(kept).toHaveLength(1);
  }, 120_000);

  it('stops a model over 25 MB while it streams, before anything reads it', async () => {
    const big = Buffer.concat([testModels().talking.oculus, Buffer.alloc(UPLOAD_LIMITS.glb + 1 - testModels().talking.oculus.length)]);
    big.writeUInt32LE(big.length, 8);
    const res = await save(server, owner.token, { name: 'Big', dhType: '2d', appearanceId: OWN_MODEL_APPEARANCE }, [
      { field: 'avatarModel', data: big },
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.body).toContain(`File size exceeds ${UPLOAD_LIMITS.glb / MB}MB for glb`);
  });

  it('kills a model check past its time or memory limit and refuses the model with a message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parla-model-'));
    const path = join(dir, 'model.glb');
    writeFileSync(path, testModels().talking.oculus);
    const job = { path, maxBytes: UPLOAD_LIMITS.glb };
    expect(await checkModelInChild(job, { timeMs: 1, heapMb: 128, rssMb: 384 })).toEqual({ problem: MODEL_CHECK_FAILED.time });
    expect(await checkModelInChild(job, { timeMs: 20_000, heapMb: 128, rssMb: 1 })).toEqual({ problem: MODEL_CHECK_FAILED.memory });
    expect(await checkModelInChild(job)).toMatchObject({ rig: { convention: 'oculus' } });
  });
});
