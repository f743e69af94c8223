// Brain → FOUNDATIONS (spec 3 §2): the Mode radio ('currently set' on the saved mode) and the
// Avatar Engine, Speech to Text and Text to Speech sections. The forms live in their own
// react-hook-form (the spec's form names: sttDetails, ttsDetails, llmDetails, ...) and every
// change is handed to the editor as the saved pipeline shape (formsToPipeline).
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { FormProvider, useForm, useWatch, type Resolver } from 'react-hook-form';
import { AVATAR_ENGINE_NAMES, AvatarEngine, type SetupMode } from '@parla/shared/enums';
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import { enginesForMode } from '@parla/shared/providers';
import { brainFormSchema, usesLlmForm, usesSpeechSections, type BrainForm } from '@parla/shared/schemas/brain-forms';
import { formsToAvatarFields, formsToPipeline, pipelineToForms } from '@parla/shared/schemas/brain-pipeline';
import { useFieldInfo } from '../../../components/info-panel';
import { errorLines } from '../../../lib/api-client';
import { useBrainCatalogue } from '../api/get-brain-catalogue';
import type { BrainChange, BrainDraft } from '../lib/brain-draft';
import { chooseEngine, switchMode, type SavedBrain } from '../lib/transitions';
import { withShownVoice } from '../lib/default-voices';
import { AgoraTenForm } from './agora-ten-form';
import { BRAIN_INFO } from './brain-field-info';
import { DialogflowForm } from './dialogflow-form';
import { BrainSelect } from './fields';
import { LlmForm } from './llm-form';
import { RealtimeForm } from './realtime-form';
import { RestForm } from './rest-form';
import { SttForm } from './stt-form';
import { ThirdPartyForm } from './third-party-form';
import { TtsForm } from './tts-form';
import { speechSourceNote } from './speech-source';

export interface BrainFoundationsProps {
  /** The editor's current values (the form starts from them). */
  draft: BrainDraft;
  /** The avatar as last saved: its mode is 'currently set', and a mode switch restores it. */
  saved: SavedBrain | null;
  avatarId?: string;
  /** The appearance's voice gender (catalogue): the built-in voice that fits the face. */
  voiceGender?: string;
  onChange(change: BrainChange): void;
  /** The editor runs this before changing tabs and before saving. */
  registerValidator?(validate: () => Promise<boolean>): () => void;
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700, mb: 0.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

export function BrainFoundations(props: BrainFoundationsProps) {
  const catalogue = useBrainCatalogue();
  if (catalogue.isPending) return <CircularProgress aria-label="Loading the providers" />;
  if (catalogue.isError) return <Alert severity="error">{errorLines(catalogue.error).join(' ')}</Alert>;
  return <FoundationsForm {...props} catalogue={catalogue.data} />;
}

const ENGINE_NOTES: Partial<Record<number, string>> = {
  [AvatarEngine.EchoTest]: 'The avatar says back what it hears: the quickest way to test the avatar end to end.',
};

export const NO_SERVER_LLM_OPTION = 'not available: this server has no language model';
export const NO_SERVER_LLM_WARNING =
  'This server has no language model of its own (LLM_BASE_URL is not set), so a Simple-mode LLM avatar could not answer its visitors. Choose Composite mode with a provider and key, or another engine.';

function FoundationsForm({
  draft,
  saved,
  avatarId,
  voiceGender,
  onChange,
  registerValidator,
  catalogue,
}: BrainFoundationsProps & { catalogue: BrainCatalogue }) {
  const resolver = useMemo(() => zodResolver(brainFormSchema(catalogue)) as unknown as Resolver<BrainForm>, [catalogue]);
  const form = useForm<BrainForm>({
    // The form starts from the editor's draft once; later draft changes come from this form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    defaultValues: useMemo(() => withShownVoice(pipelineToForms(draft.pipeline, draft, catalogue), catalogue, voiceGender), []),
    resolver,
  });
  const values = useWatch({ control: form.control }) as BrainForm;
  const mode = values.setupMode;
  const engine = values.nlpEngine;
  const modeInfo = useFieldInfo(BRAIN_INFO.mode);
  const savedBrain: SavedBrain = saved ?? {
    setupMode: draft.setupMode,
    nlpEngine: draft.nlpEngine,
    realtime: draft.realtime,
    pipeline: draft.pipeline,
    fields: draft,
  };

  // Hand every change to the editor, in the saved shape (the state it opened with is not a change).
  const sent = useRef<string | null>(null);
  useEffect(() => {
    const change: BrainChange = {
      setupMode: values.setupMode,
      nlpEngine: values.nlpEngine,
      pipeline: formsToPipeline(values, {}, catalogue),
      avatarFields: formsToAvatarFields(values),
    };
    const text = JSON.stringify(change);
    if (sent.current === null) sent.current = text;
    else if (text !== sent.current) {
      sent.current = text;
      onChange(change);
    }
  }, [values, catalogue, onChange]);

  // Editing a field clears its error (spec 3 §4).
  const { subscribe, clearErrors } = form;
  useEffect(
    () =>
      subscribe({
        formState: { values: true },
        callback: ({ name, type }) => {
          if (name && type === 'change') clearErrors(name as never);
        },
      }),
    [subscribe, clearErrors],
  );

  useEffect(() => registerValidator?.(() => form.trigger()), [registerValidator, form]);

  const replace = (next: BrainForm) => {
    for (const key of Object.keys(next) as (keyof BrainForm)[]) form.setValue(key, next[key] as never, { shouldDirty: true });
    form.clearErrors();
  };

  const offered = enginesForMode(mode);
  // Simple mode's LLM is the server's own model: refused here when the server has none.
  const noServerLlm = mode === 'Simple' && catalogue.serverLlm === false;
  const refused = (e: number) => noServerLlm && e === AvatarEngine.LargeLanguageModel;
  const engineOptions = [...offered, ...(offered.includes(engine as AvatarEngine) ? [] : [engine])].map((e) => ({
    value: e,
    label: `${(AVATAR_ENGINE_NAMES as Record<number, string>)[e] ?? String(e)}${refused(e) ? ` — ${NO_SERVER_LLM_OPTION}` : ''}`,
    disabled: !offered.includes(e as AvatarEngine) || refused(e),
  }));

  return (
    <FormProvider {...form}>
      <Box sx={{ display: 'grid', gap: 2 }}>
        <FormControl {...modeInfo}>
          <FormLabel id="brain-mode-label">Mode</FormLabel>
          <RadioGroup
            row
            aria-labelledby="brain-mode-label"
            value={mode}
            onChange={(_e, v) => replace(switchMode(form.getValues(), v as SetupMode, savedBrain, catalogue))}
          >
            {catalogue.setupModes.map((m) => (
              <FormControlLabel
                key={m.value}
                value={m.value}
                control={<Radio />}
                label={
                  <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
                    {m.label}
                    {savedBrain.setupMode === m.value && <Chip size="small" label="currently set" color="success" variant="outlined" />}
                  </Box>
                }
              />
            ))}
          </RadioGroup>
          <Typography variant="caption" color="text.secondary">
            {catalogue.setupModes.find((m) => m.value === mode)?.meaning}
          </Typography>
          {speechSourceNote(mode, catalogue.serverSpeech, catalogue.embeddedVoice) && (
            <Typography variant="caption" color="text.secondary" data-testid="speech-source">
              {speechSourceNote(mode, catalogue.serverSpeech, catalogue.embeddedVoice)}
            </Typography>
          )}
        </FormControl>

        <Section title="Avatar Engine">
          <BrainSelect
            name="nlpEngine"
            label="Avatar Engine"
            info={BRAIN_INFO.engine}
            options={engineOptions}
            sx={{ maxWidth: 420 }}
            onValueChange={(v) => replace(chooseEngine(form.getValues(), Number(v), catalogue))}
          />
          {refused(engine) && (
            <Alert severity="warning" sx={{ mt: 1 }}>
              {NO_SERVER_LLM_WARNING}
            </Alert>
          )}
          {ENGINE_NOTES[engine] && (
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              {ENGINE_NOTES[engine]}
            </Typography>
          )}
          {(usesLlmForm(engine) || engine === AvatarEngine.CustomChatGPTPrompt || engine === AvatarEngine.CustomChatGPTAssistant) && (
            <LlmForm catalogue={catalogue} avatarId={avatarId} />
          )}
          {engine === AvatarEngine.RestEndpoint && <RestForm />}
          {engine === AvatarEngine.DialogflowES && <DialogflowForm cx={false} />}
          {engine === AvatarEngine.DialogflowCX && <DialogflowForm cx />}
          {engine === AvatarEngine.ParlaRealtime && <RealtimeForm catalogue={catalogue} />}
          {engine === AvatarEngine.ElevenLabsConversationAI && <ThirdPartyForm avatarId={avatarId} />}
          {engine === AvatarEngine.Ten && <AgoraTenForm />}
        </Section>

        <Section title="Speech to Text">
          {usesSpeechSections(engine) ? (
            <SttForm catalogue={catalogue} avatarId={avatarId} />
          ) : (
            <Typography color="text.secondary">None: the engine listens itself.</Typography>
          )}
        </Section>
        <Section title="Text to Speech">
          {usesSpeechSections(engine) ? (
            <TtsForm catalogue={catalogue} avatarId={avatarId} voiceGender={voiceGender} />
          ) : (
            <Typography color="text.secondary">None: the engine speaks itself.</Typography>
          )}
        </Section>
      </Box>
    </FormProvider>
  );
}
