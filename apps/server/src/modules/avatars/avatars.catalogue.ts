// The avatars module's view of the catalogue (appearances, backgrounds, lights, 3D
// environments): creating an avatar checks its appearance here, and the player's public view
// resolves lighting presets and environment staging here.
import type { CatalogueAvatar, CatalogueEnvironmentsResponse } from '@parla/shared/schemas/catalogue';
import { CatalogueService } from '../catalogue/catalogue.service';

export interface Catalogue {
  avatar(id: string): CatalogueAvatar | null | Promise<CatalogueAvatar | null>;
  environments(): CatalogueEnvironmentsResponse | Promise<CatalogueEnvironmentsResponse>;
}

export function defaultCatalogue(): Catalogue {
  return new CatalogueService();
}
