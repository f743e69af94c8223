import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SnackbarProvider } from 'notistack';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SubscriptionDialog, type SubscriptionDialogProps } from './subscription-dialog';

function renderDialog(props: Partial<SubscriptionDialogProps> = {}) {
  const onClose = vi.fn();
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrap = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <SnackbarProvider>{children}</SnackbarProvider>
    </QueryClientProvider>
  );
  render(<SubscriptionDialog open onClose={onClose} currentPlan="FREE" requestedPlan={null} {...props} />, { wrapper: wrap });
  return { onClose };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the subscription dialog', () => {
  it('lists the plans in display order with their prices and disables the request on the current plan', () => {
    renderDialog();
    const radios = screen.getAllByRole('radio');
    expect(radios.map((r) => (r as HTMLInputElement).value)).toEqual(['FREE', 'STARTER', 'PRO', 'ENTERPRISE']);
    expect(screen.getByRole('radio', { name: 'PRO — USD 399/month' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Request Upgrade' })).toBeDisabled();
  });

  it('says Upgrade for a higher plan and Downgrade for a lower one', async () => {
    const user = userEvent.setup();
    renderDialog({ currentPlan: 'PRO' });
    await user.click(screen.getByRole('radio', { name: /ENTERPRISE/ }));
    expect(screen.getByRole('button', { name: 'Request Upgrade' })).toBeEnabled();
    await user.click(screen.getByRole('radio', { name: /STARTER/ }));
    expect(screen.getByRole('button', { name: 'Request Downgrade' })).toBeEnabled();
  });

  it('locks the radios and marks the requested plan while a request is pending', () => {
    renderDialog({ requestedPlan: 'PRO' });
    for (const radio of screen.getAllByRole('radio')) expect(radio).toBeDisabled();
    expect(screen.getByRole('radio', { name: /PRO/ })).toBeChecked();
    expect(screen.getByText('(REQUESTED)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Request Upgrade' })).toBeDisabled();
  });

  it('opens Request Sent after a successful request', async () => {
    const user = userEvent.setup();
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ status: 'OK' }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const { onClose } = renderDialog();
    await user.click(screen.getByRole('radio', { name: /STARTER/ }));
    await user.click(screen.getByRole('button', { name: 'Request Upgrade' }));
    expect(await screen.findByRole('dialog', { name: 'Request Sent' })).toHaveTextContent(
      'The administrator has been notified and will email you to confirm.',
    );
    expect(onClose).toHaveBeenCalled();
    const body = JSON.parse((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body as string);
    expect(body).toEqual({ dhType: 2, subType: 3 });
  });

  it('shows the error toast and closes when the request fails', async () => {
    const user = userEvent.setup();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ status: 'ERROR', code: 2, errors: ['x'] }), { status: 500 })),
    );
    const { onClose } = renderDialog();
    await user.click(screen.getByRole('radio', { name: /PRO/ }));
    await user.click(screen.getByRole('button', { name: 'Request Upgrade' }));
    expect(
      await screen.findByText('An error occurred while processing your subscription request. Please try again later.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
