// Issue 17: the URL rows are prefilled with the customer's own website, never the portal's
// address (item 5), and the File tab says 'File is required' (item 8).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SnackbarProvider } from 'notistack';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileTab } from './file-tab';
import type { SubmitContext } from './submit-knowledge';
import { UrlTab } from './url-tab';

const ctx = { collectionId: 'c1', progress: {}, setRetry: vi.fn(), refresh: vi.fn() } as unknown as SubmitContext;

function renderWith(node: ReactNode, ownWebsite: string | null | undefined) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  if (ownWebsite !== undefined) client.setQueryData(['account', 'info'], { accountDetails: { ownWebsite } });
  render(
    <QueryClientProvider client={client}>
      <SnackbarProvider>{node}</SnackbarProvider>
    </QueryClientProvider>,
  );
}

afterEach(cleanup);

describe('the Url tab', () => {
  it('starts with an empty URL and an example placeholder when the customer has no website', () => {
    renderWith(<UrlTab ctx={ctx} />, null);
    const url = screen.getByRole('textbox', { name: 'URL 1' });
    expect(url).toHaveValue('');
    expect(url).toHaveAttribute('placeholder', 'https://example.com/page');
  });

  it("starts with the customer's own website when one of their avatars lists it", () => {
    renderWith(<UrlTab ctx={ctx} />, 'https://shop.example/');
    expect(screen.getByRole('textbox', { name: 'URL 1' })).toHaveValue('https://shop.example/');
  });

  it('adds further rows empty, never with the portal address', async () => {
    const user = userEvent.setup();
    renderWith(<UrlTab ctx={ctx} />, 'https://shop.example/');
    await user.click(screen.getByRole('button', { name: 'Add URL' }));
    expect(screen.getByRole('textbox', { name: 'URL 2' })).toHaveValue('');
    expect(document.body.innerHTML).not.toContain(window.location.host);
  });
});

describe('the File tab', () => {
  it("says 'File is required' once a name is given without a file", async () => {
    const user = userEvent.setup();
    renderWith(<FileTab ctx={ctx} />, undefined);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Handbook');
    await user.tab();
    expect(screen.getByText('File is required')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
  });
});
