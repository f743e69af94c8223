import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdvancedTabForm, type AdvancedChange } from './advanced-form';

afterEach(cleanup);

function setup(overrides: Partial<Parameters<typeof AdvancedTabForm>[0]> = {}) {
  const onChange = vi.fn<(c: AdvancedChange) => void>();
  let validate: (() => Promise<boolean>) | undefined;
  render(
    <AdvancedTabForm
      draft={{
        setupMode: 'Composite',
        wakeUpMessage: 'Hello!',
        dailyLimitPerSession: -1,
        dailyLimitPerIP: 300,
        dailyLimits: { Demo: -1 },
        idleTimeout: 300,
      }}
      adminProxy={false}
      subscriptionType={2}
      encKeys={[{ id: 'k1', name: 'Website key', defaultKey: true }]}
      onChange={onChange}
      registerValidator={(fn) => {
        validate = fn;
        return () => {};
      }}
      {...overrides}
    />,
  );
  return { onChange, validate: () => validate!() };
}

describe('the ADVANCED form', () => {
  it('ticks Unlimited to -1 and unticks back to the value before, 600 the first time', { timeout: 20_000 }, async () => {
    const user = userEvent.setup();
    const { onChange } = setup();
    const session = screen.getByRole('checkbox', { name: 'Daily Limit Per Session unlimited' });
    expect(session).toBeChecked();
    await user.click(session);
    expect(screen.getByRole('textbox', { name: 'Daily Limit Per Session (seconds)' })).toHaveValue('600');
    expect(onChange.mock.lastCall![0].dailyLimitPerSession).toBe(600);
    const ip = screen.getByRole('checkbox', { name: 'Daily Limit Per IP unlimited' });
    await user.click(ip);
    expect(onChange.mock.lastCall![0].dailyLimitPerIP).toBe(-1);
    await user.click(ip);
    expect(screen.getByRole('textbox', { name: 'Daily Limit Per IP (seconds)' })).toHaveValue('300');
  });

  it(
    "shows the spec's messages as values are typed and says 'Invalid advance tab form' when the check fails",
    { timeout: 20_000 },
    async () => {
      const user = userEvent.setup();
      const { validate } = setup();
      const ip = screen.getByRole('textbox', { name: 'Daily Limit Per IP (seconds)' });
      await user.clear(ip);
      await user.type(ip, '0');
      expect(await screen.findByText('Daily Limit Per IP must be greater than 0 or -1 for unlimited')).toBeInTheDocument();
      await user.clear(screen.getByRole('textbox', { name: 'Wake Up Message' }));
      expect(await screen.findByText('Wake Up Message is required')).toBeInTheDocument();
      let ok = true;
      await act(async () => {
        ok = await validate();
      });
      expect(ok).toBe(false);
      expect(screen.getByText('Invalid advance tab form')).toBeInTheDocument();
    },
  );

  it('keeps the admin-proxy fields and the idle timeout away from customers', { timeout: 20_000 }, () => {
    setup();
    expect(screen.queryByText('Send Chat History')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Idle timeout (seconds)' })).toBeDisabled();
    // Transcript download: realtime avatars on PRO or ENTERPRISE only.
    expect(screen.queryByText('Transcript download')).not.toBeInTheDocument();
  });

  it('offers the admin-proxy fields, and transcript download for a realtime PRO avatar', { timeout: 20_000 }, () => {
    setup({ adminProxy: true, draft: { setupMode: 'SpeechToSpeech', realtime: true, wakeUpMessage: 'Hi' } });
    expect(screen.getByText('Send Chat History')).toBeInTheDocument();
    expect(screen.getByText('Transcript download')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Idle timeout (seconds)' })).toBeEnabled();
    // The realtime variant of voice activity detection.
    expect(screen.getByRole('textbox', { name: 'Prefix padding (ms)' })).toHaveValue('300');
    expect(screen.getByRole('textbox', { name: 'Silence duration (ms)' })).toHaveValue('500');
  });
});
