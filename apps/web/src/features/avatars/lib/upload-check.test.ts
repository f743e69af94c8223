import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkUpload } from './upload-check';

afterEach(() => vi.unstubAllGlobals());

function glb(declared: number, size: number, magic = 'glTF', version = 2): File {
  const bytes = new Uint8Array(size);
  bytes.set([...magic].map((c) => c.charCodeAt(0)));
  new DataView(bytes.buffer).setUint32(4, version, true);
  new DataView(bytes.buffer).setUint32(8, declared, true);
  return new File([bytes], 'scene.glb', { type: 'model/gltf-binary' });
}

describe('checkUpload (before the file is sent)', () => {
  it('refuses a fake .glb by its magic, version and declared length', async () => {
    expect(await checkUpload(glb(500, 500), ['glb'])).toBeNull();
    expect(await checkUpload(glb(500, 500, 'fake'), ['glb'])).toMatch(/not a binary glTF/);
    expect(await checkUpload(glb(500, 500, 'glTF', 1), ['glb'])).toMatch(/version 1/);
    expect(await checkUpload(glb(9000, 500), ['glb'])).toMatch(/incomplete or damaged/);
  });

  it('takes a .vrm (VRM is binary glTF) with no declared type, as browsers send it, and checks its header', async () => {
    const bytes = await glb(500, 500).arrayBuffer();
    expect(await checkUpload(new File([bytes], 'vroid.vrm'), ['glb'])).toBeNull();
    expect(await checkUpload(new File([bytes], 'vroid.txt'), ['glb'])).toBe('Please choose a .glb file.');
  });

  it('refuses a background image that is not 16:9, naming its size', async () => {
    let size = { width: 1024, height: 1024 };
    vi.stubGlobal('createImageBitmap', async () => ({ ...size, close() {} }));
    const png = new File([new Uint8Array(100)], 'bg.png', { type: 'image/png' });
    expect(await checkUpload(png, ['image'], { sixteenByNine: true })).toBe(
      'Background images must be 16:9 (for example 1920 × 1080); this one is 1024 × 1024.',
    );
    size = { width: 1920, height: 1080 };
    expect(await checkUpload(png, ['image'], { sixteenByNine: true })).toBeNull();
  });
});
