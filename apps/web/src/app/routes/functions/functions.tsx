// Functions (spec 4 §2, §4): nothing selected → template chooser → editor; a function from the
// side panel opens in the editor. Leaving an editor with unsaved changes (another function,
// another template, another screen) asks first (issue 17).
import { useCallback, useState } from 'react';
import Box from '@mui/material/Box';
import type { FunctionForm, FunctionRecord } from '@parla/shared/schemas/functions';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { useFunctions } from '../../../features/functions/api/get-functions';
import { FunctionEditor } from '../../../features/functions/components/function-editor';
import { FunctionsPanel } from '../../../features/functions/components/functions-panel';
import { TemplateChooser } from '../../../features/functions/components/template-chooser';

type View = { kind: 'choose' } | { kind: 'new'; initial: FunctionForm; key: number } | { kind: 'edit'; fn: FunctionRecord };

export default function FunctionsRoute() {
  const functions = useFunctions();
  const [view, setView] = useState<View>({ kind: 'choose' });
  const [dirty, setDirty] = useState(false);
  const { guard, dialog } = useUnsavedChanges(dirty, 'This function');
  const reset = useCallback(() => {
    setDirty(false);
    setView({ kind: 'choose' });
  }, []);
  const current = view.kind === 'edit' ? (functions.data?.find((f) => f.id === view.fn.id) ?? view.fn) : null;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '320px 1fr' }, gap: 3, p: { xs: 2, sm: 3 }, alignItems: 'start' }}>
      <FunctionsPanel
        selectedId={current?.id ?? null}
        onSelect={(fn) => guard(() => setView({ kind: 'edit', fn }))}
        onNew={() => guard(reset)}
      />
      <Box sx={{ minWidth: 0 }}>
        {view.kind === 'choose' && (
          <TemplateChooser
            serverTemplates={functions.data?.filter((f) => f.template) ?? []}
            onChoose={(t) => setView({ kind: 'new', initial: t, key: Date.now() })}
          />
        )}
        {view.kind === 'new' && (
          <FunctionEditor
            key={view.key}
            existing={null}
            initial={view.initial}
            onChooseAnother={() => guard(reset)}
            onDone={reset}
            onDirtyChange={setDirty}
          />
        )}
        {view.kind === 'edit' && current && (
          <FunctionEditor
            key={current.id}
            existing={current}
            initial={{ name: current.name, code: current.code }}
            onDone={reset}
            onDirtyChange={setDirty}
          />
        )}
      </Box>
      {dialog}
    </Box>
  );
}
