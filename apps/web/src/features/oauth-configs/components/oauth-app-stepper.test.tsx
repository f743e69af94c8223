import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_OAUTH_APP, OAuthAppStepper } from './oauth-app-stepper';
import { truncate } from './truncate';

afterEach(cleanup);

describe('the OAuth config stepper', () => {
  it('blocks Next until the step is valid, clears an error when its field gets a value, and submits at the end', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<OAuthAppStepper initial={EMPTY_OAUTH_APP} onSubmit={onSubmit} submitting={false} prefillUrls />);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('OAuth Identity Service is required')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Staff');
    expect(screen.queryByText('Name is required')).not.toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'OAuth Identity Service' }));
    await user.click(await screen.findByRole('option', { name: 'Google' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByRole('textbox', { name: 'OAuth URL' })).toHaveValue('https://accounts.google.com/o/oauth2/v2/auth');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Client Id is required')).toBeInTheDocument();
    expect(screen.getByText('Client Secret is required')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Client ID' }), 'client-1');
    await user.type(screen.getByLabelText(/Client Secret/), 'secret-1');
    await user.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByRole('button', { name: 'Reset' })).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenCalledOnce();
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      appName: 'Staff',
      partner: 'Google',
      clientId: 'client-1',
      clientSecret: 'secret-1',
      oauthURL: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenIssueURL: 'https://oauth2.googleapis.com/token',
      // Google's OpenID issuer and keys, prefilled (decision 624).
      issuer: 'https://accounts.google.com',
      jwksURL: 'https://www.googleapis.com/oauth2/v3/certs',
    });
  }, 30_000);

  it('resets to the first step with the initial values', async () => {
    const user = userEvent.setup();
    render(
      <OAuthAppStepper
        initial={{
          ...EMPTY_OAUTH_APP,
          appName: 'A',
          partner: 'SmartPension',
          clientId: 'c',
          clientSecret: 's',
          oauthURL: 'https://a.example/auth',
          tokenIssueURL: 'https://a.example/token',
        }}
        onSubmit={vi.fn()}
        submitting={false}
      />,
    );
    await user.clear(screen.getByRole('textbox', { name: 'Name' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Changed');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Reset' }));
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('A');
  }, 20_000);
});

describe('truncate', () => {
  it('keeps 30 characters and adds an ellipsis to longer values', () => {
    expect(truncate('a'.repeat(30))).toBe('a'.repeat(30));
    expect(truncate('b'.repeat(31))).toBe(`${'b'.repeat(30)}...`);
  });
});
