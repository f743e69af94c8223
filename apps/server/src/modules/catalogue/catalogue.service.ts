// The default catalogue: read once from the generated index (scripts/catalogue writes it next to
// the assets) and turned into the API's shapes with URLs under /catalogue/files/.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  CatalogueAvatar,
  CatalogueAvatarsResponse,
  CatalogueEnvironmentsResponse,
  CatalogueIndex,
} from '@parla/shared/schemas/catalogue';

const here = dirname(fileURLToPath(import.meta.url));
export const CATALOGUE_ASSETS = resolve(here, '../../../assets/catalogue');
/** Every file name carries its content hash, so the files may be cached for ever. */
export const CATALOGUE_FILES_PREFIX = '/catalogue/files/';

const EMPTY: CatalogueIndex = { version: 1, avatars: [], backgrounds: [], lights: [], environments: [] };

export class CatalogueService {
  private readonly index: CatalogueIndex;

  constructor(dir = CATALOGUE_ASSETS) {
    const file = join(dir, 'catalogue.json');
    // A missing index is a broken checkout, not a reason to stop the product: the lists are empty.
    this.index = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CatalogueIndex) : EMPTY;
  }

  private url(rel: string): string {
    return CATALOGUE_FILES_PREFIX + rel;
  }

  avatars(): CatalogueAvatarsResponse {
    return {
      avatars: this.index.avatars.map((a) => ({
        id: a.id,
        name: a.name,
        type: a.type,
        previewURL: this.url(a.preview),
        modelURL: this.url(a.model),
        ...(a.atlas ? { atlasURL: this.url(a.atlas) } : {}),
        ...(a.lightModel ? { lightModelURL: this.url(a.lightModel) } : {}),
        voiceGender: a.voiceGender,
      })),
    };
  }

  avatar(id: string): CatalogueAvatar | null {
    return this.avatars().avatars.find((a) => a.id === id) ?? null;
  }

  environments(): CatalogueEnvironmentsResponse {
    return {
      backgrounds: this.index.backgrounds.map((b) => ({
        id: b.id,
        name: b.name,
        kind: b.kind,
        url: this.url(b.file),
        previewURL: this.url(b.preview),
      })),
      lights: this.index.lights.map((l) => ({ id: l.id, name: l.name, previewURL: this.url(l.preview), preset: l.preset })),
      environments: this.index.environments.map((e) => ({
        id: e.id,
        name: e.name,
        modelURL: this.url(e.model),
        previewURL: this.url(e.preview),
        staging: e.staging,
      })),
    };
  }
}
