// The avatar screen (spec 2 §2, §4): the list beside the creator/editor. One form holds the avatar
// being created or edited; the selected card and the editor tabs both write to it. Create mode
// (no card selected) shows only APPEARANCE; after a create the new avatar opens in edit mode.
// Leaving an avatar with unsaved changes asks to Save or Discard; below 760 px only the list.
// The list carries only the cards: Edit reads the whole avatar (GET /api/avatar/{id}) first.
import { useCallback, useEffect, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { zodResolver } from '@hookform/resolvers/zod';
import { useSnackbar } from 'notistack';
import { FormProvider, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useBlocker, useNavigate, useSearchParams } from 'react-router';
import { AvatarEngine } from '@parla/shared/enums';
import { AVATAR_DELETE_CLOSE_MS, TOAST_ERROR_MS, TOAST_SUCCESS_MS } from '@parla/shared/limits';
import { AVATAR_MESSAGES, type Avatar, type AvatarCardItem, type UploadField } from '@parla/shared/schemas/avatar';
import { configSelfHosted } from '../lib/config-hosting';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { InfoPanelProvider } from '../../../components/info-panel';
import { paths } from '../../../config/paths';
import { MOBILE_QUERY } from '../../../config/media';
import { subscriptionTypeOf, useEditorAccountInfo } from '../api/get-account-info';
import { errorLines } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { getAvatarQueryOptions } from '../api/get-avatar';
import { cardsOf, useAvatars } from '../api/get-avatars';
import { planFull } from '../lib/plan-room';
import { useDeleteAvatar } from '../api/delete-avatar';
import { useSaveAvatar, type AvatarUploads } from '../api/save-avatar';
import { brainChanged, brainFailureAfterSave, brainSaveWarning } from '../lib/brain-after-save';
import { editorSchema, emptyValues, payloadFrom, valuesFromAvatar, type EditorValues } from '../lib/editor-values';
import { showSaveError } from '../lib/save-feedback';
import { AvatarCreatedDialog, SaveConfirmDialog, UnsavedChangesDialog } from './avatar-dialogs';
import { AvatarListPanel } from './avatar-list-panel';
import { AvatarEditor } from './editor/avatar-editor';
import { EditorContext, useValidatorRegistry, type EditorContextValue, type JsonDrafts } from './editor/editor-context';

/** The form fields each tab checks before the user may leave it (spec 2 §4). */
const TAB_FIELDS: (keyof EditorValues)[][] = [
  ['name', 'dhType', 'appearanceId'],
  ['avatarJson'],
  [],
  [],
  ['avatarJson', 'clientJson', 'avatarConfigURL', 'clientConfigURL'],
];

interface Pending {
  run(): void;
  cancel?(): void;
}

export function AvatarsScreen() {
  const mobile = useMediaQuery(MOBILE_QUERY);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const showSearchBar = params.get('showSearchBar') === 'true';
  const avatars = useAvatars();
  const accountInfo = useEditorAccountInfo();
  const save = useSaveAvatar();
  const del = useDeleteAvatar();
  const { enqueueSnackbar, closeSnackbar } = useSnackbar();
  const form = useForm<EditorValues>({
    resolver: zodResolver(editorSchema) as unknown as Resolver<EditorValues>,
    defaultValues: emptyValues(),
    reValidateMode: 'onChange',
  });
  const validators = useValidatorRegistry();

  const [saved, setSaved] = useState<Avatar | null>(null);
  const [uploads, setUploads] = useState<AvatarUploads>({});
  const [tab, setTab] = useState(0);
  const [confirmSave, setConfirmSave] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [created, setCreated] = useState<Avatar | null>(null);
  const [deleting, setDeleting] = useState<AvatarCardItem | null>(null);
  const [opening, setOpening] = useState(false);
  const [jsonDrafts, setJsonDrafts] = useState<JsonDrafts>({});
  const configUrl = useWatch({ control: form.control, name: 'avatarConfigURL' });
  const dirty = form.formState.isDirty || Object.values(uploads).some(Boolean) || Object.keys(jsonDrafts).length > 0;
  const mode = saved ? 'edit' : 'create';
  const full = planFull(
    accountInfo.data ? subscriptionTypeOf(accountInfo.data) : undefined,
    avatars.isSuccess ? cardsOf(avatars.data).length : undefined,
    avatars.isSuccess && !avatars.hasNextPage,
  );

  const load = useCallback(
    (a: Avatar | null, keepTab = false) => {
      setSaved(a);
      form.reset(a ? valuesFromAvatar(a) : emptyValues());
      setUploads({});
      setJsonDrafts({});
      if (!keepTab) setTab(0);
    },
    [form],
  );

  const setUpload = useCallback((field: UploadField, blob: Blob | undefined) => setUploads((u) => ({ ...u, [field]: blob })), []);
  const setJsonDraft = useCallback(
    (field: keyof JsonDrafts, text: string | null) =>
      setJsonDrafts((d) => {
        if (text === null) {
          if (!(field in d)) return d;
          const { [field]: _gone, ...rest } = d;
          return rest;
        }
        return d[field] === text ? d : { ...d, [field]: text };
      }),
    [],
  );
  const context: EditorContextValue = useMemo(
    () => ({
      mode,
      saved,
      uploads,
      setUpload,
      accountInfo: accountInfo.data,
      selfHosted: configSelfHosted(configUrl, saved, 'avatarConfigURL', window.location.origin),
      registerValidator: validators.register,
      jsonDrafts,
      setJsonDraft,
      onTokenChanged: (token: string) => setSaved((a) => (a ? { ...a, token } : a)),
      onStillMade: (stillURL: string) => setSaved((a) => (a ? { ...a, stillURL } : a)),
    }),
    [mode, saved, uploads, setUpload, accountInfo.data, configUrl, validators, jsonDrafts, setJsonDraft],
  );

  // Leaving the page (another route or closing the tab) with unsaved changes.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state === 'blocked') setPending({ run: () => blocker.proceed(), cancel: () => blocker.reset() });
  }, [blocker]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const guard = (run: () => void) => (dirty ? setPending({ run }) : run());

  /** Edit on a card: the whole avatar, read fresh, goes into the editor. */
  const open = async (card: AvatarCardItem) => {
    setOpening(true);
    try {
      const res = await queryClient.fetchQuery(getAvatarQueryOptions(card.id));
      load(res.agent);
    } catch (err) {
      enqueueSnackbar([AVATAR_MESSAGES.fetchFailed, ...errorLines(err)].join(' '), { variant: 'error', autoHideDuration: TOAST_ERROR_MS });
    } finally {
      setOpening(false);
    }
  };

  const validateAll = async () => (await form.trigger()) && (await validators.run()) && Object.keys(jsonDrafts).length === 0;

  const submit = async (): Promise<Avatar | null> => {
    const values = form.getValues();
    const creating = !values.id;
    const key = enqueueSnackbar(creating ? AVATAR_MESSAGES.creating : AVATAR_MESSAGES.updating, { variant: 'info', persist: true });
    try {
      const res = await save.mutateAsync({ payload: payloadFrom(values), uploads });
      closeSnackbar(key);
      enqueueSnackbar(creating ? 'Avatar created successfully.' : 'Avatar updated successfully.', {
        variant: 'success',
        autoHideDuration: TOAST_SUCCESS_MS,
      });
      load(res.agent, !creating);
      if (brainChanged(saved, res.agent))
        void brainFailureAfterSave(res.agent).then(
          (failure) => failure && enqueueSnackbar(brainSaveWarning(failure), { variant: 'warning', autoHideDuration: TOAST_ERROR_MS * 2 }),
        );
      return res.agent;
    } catch (err) {
      closeSnackbar(key);
      showSaveError(enqueueSnackbar, err, () => navigate(paths.account));
      return null;
    }
  };

  const changeTab = async (next: number) => {
    if (next === tab) return;
    const ok = (await form.trigger(TAB_FIELDS[tab] as never)) && (await validators.run([tab]));
    if (!ok) {
      enqueueSnackbar(AVATAR_MESSAGES.tabInvalid, { variant: 'error', autoHideDuration: TOAST_ERROR_MS });
      return;
    }
    setTab(next);
  };

  const onCreate = async () => {
    if (!form.getValues('appearanceId')) {
      enqueueSnackbar(AVATAR_MESSAGES.startWithAppearance, { variant: 'warning', autoHideDuration: TOAST_ERROR_MS });
      return;
    }
    if (!(await validateAll())) {
      enqueueSnackbar(AVATAR_MESSAGES.formInvalid, { variant: 'error', autoHideDuration: TOAST_ERROR_MS });
      return;
    }
    const agent = await submit();
    if (agent && agent.nlpEngine === AvatarEngine.EchoTest) setCreated(agent);
  };

  const onSave = async () => {
    if (!(await validateAll())) {
      enqueueSnackbar(AVATAR_MESSAGES.submitInvalid, { variant: 'error', autoHideDuration: TOAST_ERROR_MS });
      return;
    }
    setConfirmSave(true);
  };

  /** Save from the unsaved-changes prompt: the prompt itself was the confirmation. */
  const saveThenContinue = async () => {
    const next = pending;
    setPending(null);
    if (!(await validateAll())) {
      enqueueSnackbar(AVATAR_MESSAGES.submitInvalid, { variant: 'error', autoHideDuration: TOAST_ERROR_MS });
      next?.cancel?.();
      return;
    }
    if (await submit()) next?.run();
    else next?.cancel?.();
  };

  return (
    <FormProvider {...form}>
      <EditorContext.Provider value={context}>
        <InfoPanelProvider>
          <Box sx={{ flex: 1, display: 'flex', gap: 3, p: { xs: 2, sm: 3 }, alignItems: 'flex-start', minWidth: 0 }}>
            <AvatarListPanel
              avatars={avatars}
              mobile={mobile}
              showSearchBar={showSearchBar}
              selectedId={saved?.id ?? null}
              busy={save.isPending || opening}
              onAdd={() => (mobile ? navigate(paths.addAvatar) : guard(() => load(null)))}
              onEdit={(a) => guard(() => void open(a))}
              onSave={() => void onSave()}
              onClose={() => guard(() => load(null))}
              onDelete={setDeleting}
              planFull={full}
            />
            {!mobile && (
              <AvatarEditor
                key={`${saved?.id ?? 'new'}:${saved?.updated ?? ''}`}
                tab={tab}
                onTabChange={(t) => void changeTab(t)}
                tabsEnabled={mode === 'edit' && accountInfo.isSuccess}
                accountInfoFailed={accountInfo.isError ? { retry: () => void accountInfo.refetch() } : undefined}
                onCreate={() => void onCreate()}
                busy={save.isPending}
                planFull={full}
              />
            )}
          </Box>
          <SaveConfirmDialog
            open={confirmSave}
            tab={tab}
            typeChanged={Boolean(saved && form.getValues('dhType') !== saved.dhType)}
            onConfirm={() => {
              setConfirmSave(false);
              void submit();
            }}
            onCancel={() => {
              setConfirmSave(false);
              enqueueSnackbar(AVATAR_MESSAGES.userDenied, { variant: 'info', autoHideDuration: TOAST_SUCCESS_MS });
            }}
          />
          <UnsavedChangesDialog
            open={Boolean(pending)}
            name={form.getValues('name')}
            onSave={() => void saveThenContinue()}
            onDiscard={() => {
              const next = pending;
              setPending(null);
              form.reset(saved ? valuesFromAvatar(saved) : emptyValues());
              setUploads({});
              setJsonDrafts({});
              next?.run();
            }}
            onCancel={() => {
              pending?.cancel?.();
              setPending(null);
            }}
          />
          <AvatarCreatedDialog name={created?.name ?? ''} open={Boolean(created)} onClose={() => setCreated(null)} />
          <ConfirmDialog
            open={Boolean(deleting)}
            title="Delete Avatar"
            confirmLabel="Delete"
            errorTitle={AVATAR_MESSAGES.deleteFailed}
            successMessage={AVATAR_MESSAGES.deleted}
            closeAfterSuccessMs={AVATAR_DELETE_CLOSE_MS}
            onConfirm={async () => {
              await del.mutateAsync(deleting!.id);
              return AVATAR_MESSAGES.deleted;
            }}
            onClose={(outcome) => {
              if (outcome === 'done' && deleting && deleting.id === saved?.id) load(null);
              setDeleting(null);
            }}
          >
            <Typography>
              Delete <strong>{deleting?.name}</strong>? Its configuration, photo and uploaded media are removed, and pages that embed it
              stop working. This cannot be undone.
            </Typography>
          </ConfirmDialog>
        </InfoPanelProvider>
      </EditorContext.Provider>
    </FormProvider>
  );
}
