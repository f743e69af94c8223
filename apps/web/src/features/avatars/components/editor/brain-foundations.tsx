// Brain → FOUNDATIONS in the editor: the brain feature's forms (spec 3), fed from the editor's
// draft and writing the mode, engine and pipeline back into it; their check runs with the tab's.
import { useCallback, useMemo } from 'react';
import CircularProgress from '@mui/material/CircularProgress';
import { useFormContext } from 'react-hook-form';
import type { SetupMode } from '@parla/shared/enums';
import type { CustomData } from '@parla/shared/schemas/avatar';
import { BrainFoundations as BrainForms } from '../../../brain/components/brain-foundations';
import type { AvatarEngineFields } from '@parla/shared/schemas/brain-pipeline';
import { mergeBrainPipeline, type BrainChange } from '../../../brain/lib/brain-draft';
import type { EditorValues } from '../../lib/editor-values';
import { BrainTest } from './brain-test';
import { useEditor } from './editor-context';
import { useCatalogueAvatars } from '../../api/get-catalogue';

const BRAIN_TAB = 2;

export function BrainFoundations() {
  const { saved, registerValidator } = useEditor();
  const { getValues, setValue } = useFormContext<EditorValues>();
  // The face's voice gender picks the built-in voice that fits it (issue 35).
  const appearances = useCatalogueAvatars();
  const voiceGender = appearances.data?.avatars.find((a) => a.id === getValues('appearanceId'))?.voiceGender;
  const draft = useMemo(
    () => ({
      setupMode: (getValues('setupMode') ?? 'Simple') as SetupMode,
      nlpEngine: getValues('nlpEngine') ?? 0,
      realtime: Boolean(getValues('realtime')),
      pipeline: getValues('customData')?.agent_pipeline_config,
      restEndPointURL: getValues('restEndPointURL'),
      restApiKey: getValues('restApiKey'),
      projectId: getValues('projectId'),
      agentId: getValues('agentId'),
      regionId: getValues('regionId'),
      jsonKey: getValues('jsonKey'),
      agentLanguage: getValues('agentLanguage'),
    }),
    [getValues],
  );
  const savedBrain = useMemo(
    () =>
      saved
        ? {
            setupMode: saved.setupMode,
            nlpEngine: saved.nlpEngine,
            realtime: saved.realtime,
            pipeline: saved.customData.agent_pipeline_config,
            fields: saved,
          }
        : null,
    [saved],
  );
  const onChange = useCallback(
    (c: BrainChange) => {
      setValue('setupMode', c.setupMode, { shouldDirty: true });
      setValue('nlpEngine', c.nlpEngine, { shouldDirty: true });
      for (const [key, value] of Object.entries(c.avatarFields))
        setValue(key as keyof AvatarEngineFields, value as never, { shouldDirty: true });
      const custom = (getValues('customData') ?? {}) as CustomData;
      setValue('customData', { ...custom, agent_pipeline_config: mergeBrainPipeline(custom.agent_pipeline_config, c.pipeline) } as never, {
        shouldDirty: true,
      });
    },
    [getValues, setValue],
  );
  const register = useCallback((fn: () => Promise<boolean>) => registerValidator(BRAIN_TAB, 'foundations', fn), [registerValidator]);
  // The form picks its shown voice once, as it opens: after the faces are known.
  if (appearances.isPending) return <CircularProgress aria-label="Loading the providers" />;
  return (
    <>
      <BrainForms
        draft={draft}
        saved={savedBrain}
        avatarId={getValues('id')}
        voiceGender={voiceGender}
        onChange={onChange}
        registerValidator={register}
      />
      <BrainTest />
    </>
  );
}
