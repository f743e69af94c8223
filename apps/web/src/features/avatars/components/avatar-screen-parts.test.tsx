import { QueryClient, QueryClientProvider, type UseInfiniteQueryResult } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SnackbarProvider } from 'notistack';
import type { ReactNode } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccountInfoResponse } from '@parla/shared/schemas/account';
import type { AvatarCardItem } from '@parla/shared/schemas/avatar';
import { ApiError } from '../../../lib/api-client';
import type { AvatarPages } from '../api/get-avatars';
import { emptyValues, type EditorValues } from '../lib/editor-values';
import { AvatarListPanel, type AvatarListPanelProps } from './avatar-list-panel';
import { AppearanceTab } from './editor/appearance-tab';
import { EditorContext, type EditorContextValue } from './editor/editor-context';

afterEach(() => cleanup());

const catalogue = {
  avatars: [
    { id: 'ada', name: 'Ada', type: 'image', previewURL: '/ada.png', modelURL: '/ada.json', voiceGender: 'female' },
    { id: 'cara', name: 'Cara', type: '2d', previewURL: '/cara.png', modelURL: '/cara.glb', voiceGender: 'female' },
  ],
};

function Providers({ children, plan = 1 }: { children: ReactNode; plan?: number }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(['avatars', 'catalogue', 'avatars'], catalogue);
  const form = useForm<EditorValues>({ defaultValues: emptyValues() });
  const ctx: EditorContextValue = {
    mode: 'create',
    saved: null,
    uploads: {},
    setUpload: vi.fn(),
    accountInfo: { accountDetails: { licenses: { webgl: { subscriptionType: plan } } } } as AccountInfoResponse,
    selfHosted: false,
    registerValidator: () => () => {},
    jsonDrafts: {},
    setJsonDraft: vi.fn(),
  };
  return (
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <SnackbarProvider>
          <FormProvider {...form}>
            <EditorContext.Provider value={ctx}>{children}</EditorContext.Provider>
          </FormProvider>
        </SnackbarProvider>
      </QueryClientProvider>
    </MemoryRouter>
  );
}

describe('the Appearance tab', () => {
  it('shows Coming Soon while there are no video avatars', async () => {
    const user = userEvent.setup();
    render(<AppearanceTab />, { wrapper: Providers });
    await user.click(screen.getByRole('tab', { name: 'VIDEO AVATARS' }));
    expect(screen.getByText('Coming Soon')).toBeInTheDocument();
  });

  it('asks a FREE account to upgrade for a custom image avatar', async () => {
    const user = userEvent.setup();
    render(<AppearanceTab />, { wrapper: Providers });
    await user.click(screen.getByRole('tab', { name: 'IMAGE AVATARS' }));
    await user.click(screen.getByRole('button', { name: /custom image avatar/ }));
    expect(screen.getByRole('dialog', { name: 'Higher Subscription Plan Required' })).toBeInTheDocument();
  });

  it('gives a PRO account the instructions to email a photo', async () => {
    const user = userEvent.setup();
    render(<AppearanceTab />, { wrapper: ({ children }) => <Providers plan={2}>{children}</Providers> });
    await user.click(screen.getByRole('tab', { name: 'IMAGE AVATARS' }));
    await user.click(screen.getByRole('button', { name: /custom image avatar/ }));
    expect(screen.getByRole('dialog', { name: 'Create a custom image avatar' })).toHaveTextContent('24-48 hours');
  });

  it('selects an appearance and fills the name with it', async () => {
    const user = userEvent.setup();
    render(<AppearanceTab />, { wrapper: Providers });
    expect(screen.getByText('Please select an avatar from the grid to create one.')).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Cara' }));
    expect(screen.getByRole('option', { name: 'Cara' })).toHaveAttribute('aria-selected', 'true');
  });
});

function panel(avatars: Partial<UseInfiniteQueryResult<AvatarPages>>, props: Partial<AvatarListPanelProps> = {}) {
  const noop = vi.fn();
  render(
    <AvatarListPanel
      avatars={avatars as UseInfiniteQueryResult<AvatarPages>}
      mobile={false}
      showSearchBar={false}
      selectedId={null}
      busy={false}
      onAdd={noop}
      onEdit={noop}
      onSave={noop}
      onClose={noop}
      onDelete={noop}
      {...props}
    />,
    { wrapper: Providers },
  );
}

describe('the avatar list', () => {
  it('says Fetching Agents... while loading, with the desktop heading', () => {
    panel({ isPending: true, data: undefined });
    expect(screen.getByRole('heading', { name: 'Avatar Creator' })).toBeInTheDocument();
    expect(screen.getByText('Fetching Agents...')).toBeInTheDocument();
  });

  it('shows the failure banner with hints and the mobile heading', () => {
    panel({ isError: true, error: new ApiError(2, 500, ['Oops']), refetch: vi.fn() }, { mobile: true });
    expect(screen.getByRole('heading', { name: 'Your Avatars' })).toBeInTheDocument();
    expect(screen.getByText('Failed to fetch agents.')).toBeInTheDocument();
    expect(screen.getByText(/sign out and sign in again/)).toBeInTheDocument();
  });

  it('prompts to create the first avatar when the list is empty, and shows the search bar on request', () => {
    panel(
      { isSuccess: true, hasNextPage: false, data: { pages: [{ agents: [], nextOffset: null }], pageParams: [0] } },
      { showSearchBar: true },
    );
    expect(screen.getByText(/Choose an avatar from the grid: the START button becomes CREATE AVATAR/)).toBeInTheDocument();
    expect(screen.getByLabelText('Search by Avatar ID')).toBeInTheDocument();
  });

  const card = (id: string, name: string): AvatarCardItem => ({
    id,
    name,
    nlpEngine: 0,
    nlpEngineName: 'Echo',
    dhType: '2d',
    dhTypeName: 'Upper Body 3D',
    appearanceId: 'ub-noah',
    usersCount: 0,
    created: '2026-11-24T10:00:00.000Z',
    updated: '2026-11-24T10:00:00.000Z',
    avatarPhotoURL: null,
    stillURL: null,
    token: 't'.repeat(40),
    encKeyId: 'Default',
  });

  it('filters the cards by id in the browser at once when the whole list is in hand, without Load more', async () => {
    const user = userEvent.setup();
    const pages = [{ agents: [card('aaaa-1111', 'Ada'), card('bbbb-2222', 'Bea')], nextOffset: null }];
    panel({ isSuccess: true, hasNextPage: false, data: { pages, pageParams: [0] } }, { showSearchBar: true });
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more avatars' })).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Search by Avatar ID'), 'BBBB');
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual(['Avatar Bea']);
  });

  it('offers Load more under the cards when another page follows, and fetches it', async () => {
    const user = userEvent.setup();
    const fetchNextPage = vi.fn();
    const pages = [{ agents: [card('aaaa-1111', 'Ada')], nextOffset: 200 }];
    panel({ isSuccess: true, hasNextPage: true, isFetchingNextPage: false, fetchNextPage, data: { pages, pageParams: [0] } });
    expect(screen.getByText('Showing 1 avatars')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more avatars' }));
    expect(fetchNextPage).toHaveBeenCalled();
  });
});
