// @vitest-environment node
import { BoxGeometry, DoubleSide, Group, Mesh, MeshBasicMaterial, MeshStandardMaterial, Texture, type MeshPhongMaterial } from 'three';
import { describe, expect, it } from 'vitest';
import { shininessFor, applyPlainMaterials } from './plain-materials';

describe('plain materials for software WebGL', () => {
  it('replaces a physical material by Phong with its colour, texture, alpha test and sides, shared meshes sharing one', () => {
    const map = new Texture();
    const skin = new MeshStandardMaterial({ name: 'Skin', color: 0xd0a080, map, roughness: 0.52, alphaTest: 0.5, side: DoubleSide });
    const root = new Group();
    const face: Mesh = new Mesh(new BoxGeometry(), skin);
    const body: Mesh = new Mesh(new BoxGeometry(), skin);
    const unlit: Mesh = new Mesh(new BoxGeometry(), new MeshBasicMaterial());
    root.add(face, body, unlit);
    applyPlainMaterials(root);
    const m = face.material as MeshPhongMaterial;
    expect(m.isMeshPhongMaterial).toBe(true);
    expect(m.name).toBe('Skin');
    expect(m.map).toBe(map);
    expect(m.color.getHex()).toBe(skin.color.getHex());
    expect(m.alphaTest).toBe(0.5);
    expect(m.side).toBe(DoubleSide);
    expect(body.material).toBe(m);
    // An unlit material is already as cheap as it gets.
    expect((unlit.material as MeshBasicMaterial).isMeshBasicMaterial).toBe(true);
  });

  it('keeps glossy surfaces (eyes) sharp and rough ones (cloth, hair) matte', () => {
    expect(shininessFor(0.12)).toBeGreaterThan(200);
    expect(shininessFor(0.52)).toBeGreaterThan(15);
    expect(shininessFor(0.52)).toBeLessThan(40);
    expect(shininessFor(0.9)).toBeLessThan(5);
    const root = new Group();
    const eye: Mesh = new Mesh(new BoxGeometry(), new MeshStandardMaterial({ roughness: 0.12 }));
    const cloth: Mesh = new Mesh(new BoxGeometry(), new MeshStandardMaterial({ roughness: 0.8 }));
    root.add(eye, cloth);
    applyPlainMaterials(root);
    const [e, c] = [eye.material as MeshPhongMaterial, cloth.material as MeshPhongMaterial];
    expect(e.specular.r).toBeGreaterThan(c.specular.r * 3);
  });
});
