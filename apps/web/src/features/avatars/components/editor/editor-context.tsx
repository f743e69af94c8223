// What every editor tab shares besides the form: the mode, the avatar as last saved, files
// waiting to be sent with the next save, the account info, and the per-tab validators that run
// when the user leaves a tab or saves (spec 2 §4).
import { createContext, useContext, useEffect, useMemo, useRef } from 'react';
import type { Avatar, UploadField } from '@parla/shared/schemas/avatar';
import type { AvatarUploads } from '../../api/save-avatar';
import type { EditorAccountInfo } from '../../api/get-account-info';

export type Validator = () => boolean | Promise<boolean>;

/** JSON text typed in the EMBED tab that does not parse or fit its schema yet: unsaved work the
 *  form cannot hold (it holds parsed JSON only), kept while the sub-tab changes (issue 17). */
export type JsonDrafts = Partial<Record<'avatarJson' | 'clientJson', string>>;

export interface EditorContextValue {
  mode: 'create' | 'edit';
  saved: Avatar | null;
  uploads: AvatarUploads;
  setUpload(field: UploadField, blob: Blob | undefined): void;
  accountInfo: EditorAccountInfo | undefined;
  /** The Appearance tab and the JSON editors are read-only while the config is self-hosted. */
  selfHosted: boolean;
  registerValidator(tab: number, key: string, fn: Validator): () => void;
  jsonDrafts: JsonDrafts;
  setJsonDraft(field: keyof JsonDrafts, text: string | null): void;
  /** The access link was regenerated: the avatar as last saved gets the new token. */
  onTokenChanged?(token: string): void;
  /** The uploaded model's atlas was stored (decision 127): the avatar as last saved gets its still. */
  onStillMade?(stillURL: string): void;
}

export const EditorContext = createContext<EditorContextValue | null>(null);

export function useEditor(): EditorContextValue {
  const ctx = useContext(EditorContext);
  if (!ctx) throw new Error('EditorContext is missing');
  return ctx;
}

/** A tab's own check (e.g. a JSON editor whose text does not parse); the latest closure runs. */
export function useTabValidator(tab: number, key: string, fn: Validator) {
  const { registerValidator } = useEditor();
  const latest = useRef(fn);
  useEffect(() => {
    latest.current = fn;
  });
  useEffect(() => registerValidator(tab, key, () => latest.current()), [registerValidator, tab, key]);
}

/** A registry of validators per tab, stable for the screen's lifetime. */
export function useValidatorRegistry() {
  const map = useRef(new Map<number, Map<string, Validator>>());
  return useMemo(
    () => ({
      register(tab: number, key: string, fn: Validator) {
        const forTab = map.current.get(tab) ?? new Map<string, Validator>();
        forTab.set(key, fn);
        map.current.set(tab, forTab);
        return () => {
          forTab.delete(key);
        };
      },
      async run(tabs?: number[]): Promise<boolean> {
        const entries = [...map.current.entries()].filter(([t]) => !tabs || tabs.includes(t));
        const results = await Promise.all(entries.flatMap(([, fns]) => [...fns.values()].map((fn) => fn())));
        return results.every(Boolean);
      },
    }),
    [],
  );
}

/** An object URL for a pending file, revoked when the file changes or the view goes. */
export function useObjectUrl(blob: Blob | undefined): string | null {
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob]);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}
