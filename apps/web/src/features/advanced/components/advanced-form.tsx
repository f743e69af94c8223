// ADVANCED (spec 3 §2, §3, §5, §6, §9): general settings (encryption, wake-up message,
// transcription, the admin-proxy fields), daily limits with Unlimited, idle timeout, OAuth info,
// Interruptions and Voice Activity Detection (the realtime variant for speech-to-speech).
// Checked as the user types; a failed check on save says 'Invalid advance tab form'.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch, type Control, type FieldPath, type Resolver } from 'react-hook-form';
import type { SetupMode } from '@parla/shared/enums';
import { INTERRUPT_OPTIONS, type NumberOption } from '@parla/shared/providers';
import {
  ADVANCED_MESSAGES,
  ENCRYPTION_OPTIONS,
  advancedFormSchema,
  advancedFromAvatar,
  advancedToAvatar,
  transcriptDownloadOffered,
  vadOptionsFor,
  type AdvancedForm,
  type AvatarAdvancedFields,
} from '@parla/shared/schemas/advanced';
import { FormSelect } from '../../../components/form/form-select';
import { FormSwitch } from '../../../components/form/form-switch';
import { FormTextField } from '../../../components/form/form-text-field';
import { useFieldInfo, type FieldInfo } from '../../../components/info-panel';
import { logger } from '../../../lib/logger';
import { ADVANCED_INFO } from './advanced-field-info';

const FIELD_KINDS: readonly string[] = ['boolean', 'number', 'integer'];
import { LimitField } from './limit-field';
import { TurnTakingPresets } from './turn-taking-presets';

export type AdvancedChange = ReturnType<typeof advancedToAvatar>;

export interface AdvancedTabFormProps {
  draft: AvatarAdvancedFields & { setupMode: SetupMode };
  /** Admin-proxy sessions see and edit the extra fields (spec 3 §6). */
  adminProxy: boolean;
  subscriptionType: number | undefined;
  encKeys: readonly { id: string; name?: string | null; defaultKey?: boolean }[];
  onChange(change: AdvancedChange): void;
  registerValidator?(validate: () => Promise<boolean>): () => void;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700, mb: 0.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function Text({
  control,
  name,
  info,
  ...rest
}: {
  control: Control<AdvancedForm>;
  name: FieldPath<AdvancedForm>;
  info: FieldInfo;
  label: string;
  disabled?: boolean;
  multiline?: boolean;
  inputMode?: 'numeric' | 'decimal';
  helperText?: string;
  type?: string;
}) {
  const handlers = useFieldInfo(info);
  return <FormTextField control={control} name={name} margin="dense" {...handlers} {...rest} />;
}

function Toggle({
  control,
  name,
  info,
  label,
  disabled,
}: {
  control: Control<AdvancedForm>;
  name: FieldPath<AdvancedForm>;
  info: FieldInfo;
  label: string;
  disabled?: boolean;
}) {
  const handlers = useFieldInfo(info);
  return <FormSwitch control={control} name={name} label={label} disabled={disabled} {...handlers} />;
}

function OptionField({
  control,
  group,
  option,
}: {
  control: Control<AdvancedForm>;
  group: 'interrupt_handling' | 'vad_options';
  option: NumberOption;
}) {
  // The options are a table (also served in account info): a kind this form does not know is only logged (spec 3 §2).
  if (!FIELD_KINDS.includes(option.kind)) {
    logger.warn('unsupported field type', option.kind, option.key);
    return null;
  }
  const info = {
    title: option.label,
    description: option.description,
    ...(option.max !== undefined ? { possibleValues: [`${option.min ?? 0} to ${option.max}`] } : {}),
  };
  if (option.kind === 'boolean')
    return <Toggle control={control} name={`${group}.${option.key}` as FieldPath<AdvancedForm>} info={info} label={option.label} />;
  return (
    <Text
      control={control}
      name={`${group}.${option.key}` as FieldPath<AdvancedForm>}
      info={info}
      label={option.unit ? `${option.label} (${option.unit})` : option.label}
      inputMode="decimal"
    />
  );
}

export function AdvancedTabForm({ draft, adminProxy, subscriptionType, encKeys, onChange, registerValidator }: AdvancedTabFormProps) {
  const ctx = useMemo(() => ({ speechToSpeech: draft.setupMode === 'SpeechToSpeech' }), [draft.setupMode]);
  const resolver = useMemo(() => zodResolver(advancedFormSchema(ctx)) as unknown as Resolver<AdvancedForm>, [ctx]);
  const { control, trigger, setValue } = useForm<AdvancedForm>({
    // eslint-disable-next-line react-hooks/exhaustive-deps
    defaultValues: useMemo(() => advancedFromAvatar(draft, ctx), []),
    resolver,
    mode: 'onChange',
  });
  const values = useWatch({ control }) as AdvancedForm;
  const [invalid, setInvalid] = useState(false);
  const encInfo = useFieldInfo(ADVANCED_INFO.encKeyId);
  const oauthInfo = useFieldInfo(ADVANCED_INFO.oauthEnabled);

  // Every change goes to the editor; the state the tab opened with is not a change.
  const sent = useRef<string | null>(null);
  useEffect(() => {
    const change = advancedToAvatar(values, ctx);
    const text = JSON.stringify(change);
    if (sent.current === null) sent.current = text;
    else if (text !== sent.current) {
      sent.current = text;
      onChange(change);
    }
  }, [values, ctx, onChange]);

  useEffect(
    () =>
      registerValidator?.(async () => {
        const ok = await trigger();
        setInvalid(!ok);
        return ok;
      }),
    [registerValidator, trigger],
  );

  const offerTranscript = transcriptDownloadOffered(subscriptionType, Boolean(values.realtime));
  const encOptions = [
    { value: ENCRYPTION_OPTIONS.default, label: 'Default (token in URL)' },
    { value: ENCRYPTION_OPTIONS.none, label: 'None' },
    ...encKeys.map((k) => ({ value: k.id, label: k.name ? `${k.name}${k.defaultKey ? ' (default key)' : ''}` : k.id })),
  ];

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {invalid && <Alert severity="error">{ADVANCED_MESSAGES.invalidForm}</Alert>}
      <Section title="General">
        <FormSelect control={control} name="encKeyId" label="Encryption" options={encOptions} margin="dense" {...encInfo} />
        <Text control={control} name="wakeUpMessage" label="Wake Up Message" info={ADVANCED_INFO.wakeUpMessage} multiline />
        <Toggle
          control={control}
          name="transcriptionStreaming"
          label="Transcription streaming"
          info={ADVANCED_INFO.transcriptionStreaming}
        />
        {offerTranscript && (
          <Toggle control={control} name="enableTranscriptDownload" label="Transcript download" info={ADVANCED_INFO.transcriptDownload} />
        )}
        {adminProxy && (
          <Box sx={{ mt: 1, p: 1.5, borderRadius: 1, bgcolor: 'action.hover' }}>
            <Typography variant="subtitle2">Admin-proxy settings</Typography>
            <Toggle control={control} name="realtime" label="Realtime" info={ADVANCED_INFO.realtime} />
            {values.realtime && (
              <Alert severity="warning" sx={{ my: 1 }}>
                Realtime is the new avatar type: some fields are not supported for legacy avatars.
              </Alert>
            )}
            <Toggle control={control} name="sendChatHistory" label="Send Chat History" info={ADVANCED_INFO.sendChatHistory} />
            <Toggle control={control} name="handleSttResponse" label="Handle STT Response" info={ADVANCED_INFO.handleSttResponse} />
            <Text
              control={control}
              name="wordsPerSecond"
              label="Words Spoken Per Second"
              info={ADVANCED_INFO.wordsPerSecond}
              inputMode="decimal"
            />
          </Box>
        )}
        <Divider sx={{ my: 2 }} />
        <Typography variant="subtitle2">Limits</Typography>
        <LimitField
          control={control}
          name="dailyLimitPerSession"
          label="Daily Limit Per Session"
          info={ADVANCED_INFO.dailyLimitPerSession}
        />
        <LimitField control={control} name="dailyLimitPerIP" label="Daily Limit Per IP" info={ADVANCED_INFO.dailyLimitPerIP} />
        <LimitField control={control} name="demoLimit" label="Demo duration limit" info={ADVANCED_INFO.demoLimit} />
        <Text
          control={control}
          name="idleTimeout"
          label="Idle timeout (seconds)"
          info={ADVANCED_INFO.idleTimeout}
          inputMode="numeric"
          disabled={!adminProxy}
          helperText={adminProxy ? undefined : 'Only an administrator can change the idle timeout.'}
        />
        <Divider sx={{ my: 2 }} />
        <Typography variant="subtitle2">OAuth</Typography>
        <FormSelect
          control={control}
          name="oauthEnabled"
          label="OAuth Enabled"
          options={[
            { value: 0, label: 'No' },
            { value: 1, label: 'Yes' },
          ]}
          margin="dense"
          {...oauthInfo}
        />
        {values.oauthEnabled === 1 && (
          <Text
            control={control}
            name="partnerOauthAppId"
            label="Customer OAuth Config ID"
            info={ADVANCED_INFO.partnerOauthAppId}
            inputMode="numeric"
          />
        )}
        <Text control={control} name="billingAuthURL" label="Billing URL" info={ADVANCED_INFO.billingAuthURL} />
        <Text
          control={control}
          name="billingAuthHeader"
          label="Billing Authorization Header"
          info={ADVANCED_INFO.billingAuthHeader}
          type="password"
        />
      </Section>
      <Section title="Turn-taking">
        <TurnTakingPresets values={values} speechToSpeech={ctx.speechToSpeech} setValue={setValue} />
      </Section>
      <Section title="Interruptions">
        {INTERRUPT_OPTIONS.map((o) => (
          <OptionField key={o.key} control={control} group="interrupt_handling" option={o} />
        ))}
      </Section>
      <Section title="Voice Activity Detection">
        {ctx.speechToSpeech && (
          <Typography variant="body2" color="text.secondary">
            The speech-to-speech model detects turns itself with these settings.
          </Typography>
        )}
        <Box sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
          {vadOptionsFor(ctx).map((o) => (
            <OptionField key={o.key} control={control} group="vad_options" option={o} />
          ))}
        </Box>
      </Section>
    </Box>
  );
}
