import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { ALLOWED_ORIGINS_MAX, ALLOWED_ORIGINS_MESSAGES as O } from '@parla/shared/schemas/allowed-origins';
import { InfoPanel, InfoPanelProvider } from '../../../../components/info-panel';
import { emptyValues, payloadFrom, type EditorValues } from '../../lib/editor-values';
import { addOrigin, AllowedWebsites } from './allowed-websites';

afterEach(() => cleanup());

const seen: { values: EditorValues | null } = { values: null };

function Probe() {
  const values = useWatch() as EditorValues;
  useEffect(() => {
    seen.values = values;
  });
  return null;
}

function Harness({ initial = [] as string[] }) {
  const form = useForm<EditorValues>({ defaultValues: { ...emptyValues(), id: 'a1', allowedOrigins: initial } });
  return (
    <FormProvider {...form}>
      <InfoPanelProvider>
        <AllowedWebsites />
        <InfoPanel />
        <Probe />
      </InfoPanelProvider>
    </FormProvider>
  );
}

describe('EMBED → Allowed websites', () => {
  it('adds websites normalised, refuses what is not one, removes them, and sends the list with the save', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.getByText('Any website may embed this avatar.')).toBeInTheDocument();
    const input = screen.getByRole('textbox', { name: 'Website' });
    await user.type(input, 'shop.example.com{Enter}');
    expect(screen.getByText(O.invalid)).toBeInTheDocument();
    await user.clear(input);
    expect(screen.queryByText(O.invalid)).not.toBeInTheDocument();
    await user.type(input, 'https://Shop.Example.com:443/');
    await user.click(screen.getByRole('button', { name: 'Add website' }));
    await user.type(input, 'http://localhost:3000{Enter}');
    const list = screen.getByRole('list', { name: 'Allowed websites' });
    expect(list).toHaveTextContent('https://shop.example.com');
    expect(list).toHaveTextContent('http://localhost:3000');
    await user.type(input, 'https://shop.example.com{Enter}');
    expect(screen.getByText(O.duplicate)).toBeInTheDocument();
    expect(payloadFrom(seen.values!)).toMatchObject({ allowedOrigins: ['https://shop.example.com', 'http://localhost:3000'] });

    await user.click(screen.getByRole('button', { name: 'Remove http://localhost:3000' }));
    expect(payloadFrom(seen.values!)).toMatchObject({ allowedOrigins: ['https://shop.example.com'] });
    // Clicking the field explains it.
    await user.click(input);
    expect(screen.getAllByText('Allowed websites').length).toBeGreaterThan(1);
  }, 20_000); // types about a hundred keys through user-event: over 5 s on a loaded 2-core CI machine

  it('keeps at most the maximum number of websites', () => {
    const full = Array.from({ length: ALLOWED_ORIGINS_MAX }, (_, i) => `https://s${i}.example.com`);
    expect(addOrigin(full, 'https://one-more.example.com')).toEqual({ error: O.tooMany });
    expect(addOrigin([], ' https://EXAMPLE.com ')).toEqual({ list: ['https://example.com'] });
    expect(addOrigin([], 'https://example.com/path')).toEqual({ error: O.invalid });
  });
});
