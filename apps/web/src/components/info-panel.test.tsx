import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { InfoPanel, InfoPanelProvider, useFieldInfo } from './info-panel';

afterEach(cleanup);

function Field({ title }: { title: string }) {
  return <button {...useFieldInfo({ title, description: 'What it does.' })}>{title}</button>;
}

describe('InfoPanel', () => {
  it('lets a long field name wrap only at camel-case and word bounds, never mid-word', () => {
    render(
      <InfoPanelProvider>
        <Field title="screenAspectRatio" />
        <InfoPanel />
      </InfoPanelProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'screenAspectRatio' }));
    const heading = screen.getByRole('heading', { name: 'screenAspectRatio' });
    expect(heading.innerHTML).toBe('screen<wbr>Aspect<wbr>Ratio');
    const panel = screen.getByRole('complementary', { name: 'Field information' });
    expect(getComputedStyle(panel).overflowWrap).not.toBe('anywhere');
    expect(getComputedStyle(heading).overflowWrap).toBe('normal');
  });
});
