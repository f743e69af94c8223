// Knowledge Base (spec 4 §2): collections beside either the create form or the Collection Builder.
import { useState } from 'react';
import Box from '@mui/material/Box';
import { useCollections } from '../../../features/knowledge/api/get-collections';
import { CollectionBuilder } from '../../../features/knowledge/components/collection-builder';
import { CollectionsPanel } from '../../../features/knowledge/components/collections-panel';
import { CreateCollectionForm } from '../../../features/knowledge/components/create-collection-form';

export default function KnowledgeBaseRoute() {
  const collections = useCollections();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = collections.data?.find((c) => c.id === selectedId) ?? null;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '300px 1fr' }, gap: 3, p: { xs: 2, sm: 3 }, alignItems: 'start' }}>
      <CollectionsPanel selectedId={selected?.id ?? null} onSelect={setSelectedId} onCreate={() => setSelectedId(null)} />
      <Box sx={{ minWidth: 0 }}>
        {selected ? (
          <CollectionBuilder key={selected.id} collection={selected} onDeleted={() => setSelectedId(null)} />
        ) : (
          <CreateCollectionForm onCreated={(c) => setSelectedId(c.id)} />
        )}
      </Box>
    </Box>
  );
}
