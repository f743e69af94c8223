// Small helpers over the form's avatarJson (the avatar/environment config, spec 2 §3): the
// Environment tab edits panel, Scene, Lights and Environment through these.
import { useFormContext, useWatch } from 'react-hook-form';
import type { AvatarJson } from '@parla/shared/schemas/player';
import type { EditorValues } from '../../lib/editor-values';

export const TRANSPARENT = /transparent:\s*true/i;

export function useAvatarJson() {
  const { setValue, getValues } = useFormContext<EditorValues>();
  const json = useWatch<EditorValues, 'avatarJson'>({ name: 'avatarJson' }) ?? {};
  const update = (change: (j: AvatarJson) => AvatarJson) =>
    setValue('avatarJson', change(JSON.parse(JSON.stringify(getValues('avatarJson') ?? {})) as AvatarJson), {
      shouldDirty: true,
      shouldValidate: true,
    });
  return {
    json,
    update,
    setPanel: (patch: NonNullable<AvatarJson['panel']>) => update((j) => ({ ...j, panel: { ...j.panel, ...patch } })),
  };
}
