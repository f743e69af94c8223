// ADVANCED in the editor: the advanced feature's form (spec 3), fed from the editor's draft and
// writing back the avatar fields and the customData parts it owns; its check runs with the tab's.
import { useCallback, useMemo } from 'react';
import { useFormContext } from 'react-hook-form';
import type { SetupMode } from '@parla/shared/enums';
import type { CustomData } from '@parla/shared/schemas/avatar';
import { AdvancedTabForm, type AdvancedChange } from '../../../advanced/components/advanced-form';
import { useEncKeys } from '../../../encryption-keys/api/get-enc-keys';
import { useAuth } from '../../../../lib/auth-session';
import { subscriptionTypeOf } from '../../api/get-account-info';
import type { EditorValues } from '../../lib/editor-values';
import { useEditor } from './editor-context';

const ADVANCED_TAB = 3;

export function AdvancedTab() {
  const { accountInfo, registerValidator } = useEditor();
  const session = useAuth();
  // The Encryption select offers the account's keys (Default and None always).
  const encKeys = useEncKeys();
  const { getValues, setValue } = useFormContext<EditorValues>();
  const draft = useMemo(() => {
    const v = getValues();
    return { ...v, setupMode: (v.setupMode ?? 'Simple') as SetupMode, customData: v.customData as CustomData | undefined };
  }, [getValues]);
  const onChange = useCallback(
    (a: AdvancedChange) => {
      const dirty = { shouldDirty: true };
      setValue('encKeyId', a.encKeyId, dirty);
      setValue('wakeUpMessage', a.wakeUpMessage, dirty);
      setValue('sendChatHistory', a.sendChatHistory, dirty);
      setValue('handleSttResponse', a.handleSttResponse, dirty);
      setValue('realtime', a.realtime, dirty);
      // Limits as typed (numbers, or the text the checks report): the tab shows them again when reopened.
      setValue('dailyLimitPerSession', a.dailyLimitPerSession as never, dirty);
      setValue('dailyLimitPerIP', a.dailyLimitPerIP as never, dirty);
      setValue('dailyLimits', { ...(getValues('dailyLimits') ?? {}), Demo: a.demoLimit } as never, dirty);
      setValue('idleTimeout', a.idleTimeout as never, dirty);
      setValue('oauthEnabled', a.oauthEnabled, dirty);
      setValue('partnerOauthAppId', a.partnerOauthAppId, dirty);
      setValue('billingAuthURL', a.billingAuthURL, dirty);
      setValue('billingAuthHeader', a.billingAuthHeader, dirty);
      const custom = (getValues('customData') ?? {}) as CustomData;
      const pipeline = custom.agent_pipeline_config ?? {};
      setValue(
        'customData',
        {
          ...custom,
          words_per_sec: a.words_per_sec,
          transcriptionStreaming: a.transcriptionStreaming,
          enable_transcript_download: a.enable_transcript_download,
          agent_pipeline_config: { ...pipeline, interrupt_handling: a.interrupt_handling, vad_options: a.vad_options },
        } as never,
        dirty,
      );
    },
    [getValues, setValue],
  );
  const register = useCallback((fn: () => Promise<boolean>) => registerValidator(ADVANCED_TAB, 'advanced', fn), [registerValidator]);
  return (
    <AdvancedTabForm
      draft={draft}
      adminProxy={Boolean(session?.adminProxy)}
      subscriptionType={subscriptionTypeOf(accountInfo)}
      encKeys={encKeys.data ?? []}
      onChange={onChange}
      registerValidator={register}
    />
  );
}
