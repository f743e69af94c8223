// Encryption Keys (spec 4 §2): the keys beside the 'Create an Encryption Key' form.
import { useState } from 'react';
import Box from '@mui/material/Box';
import { CreateKeyForm } from '../../../features/encryption-keys/components/create-key-form';
import { KeysPanel } from '../../../features/encryption-keys/components/keys-panel';

export default function EncryptionKeysRoute() {
  // "Create Encryption Key" starts a fresh form (and forgets a private key still on screen).
  const [formKey, setFormKey] = useState(0);
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '320px 1fr' }, gap: 3, p: { xs: 2, sm: 3 }, alignItems: 'start' }}>
      <KeysPanel onCreate={() => setFormKey((k) => k + 1)} />
      <Box sx={{ minWidth: 0 }}>
        <CreateKeyForm key={formKey} />
      </Box>
    </Box>
  );
}
