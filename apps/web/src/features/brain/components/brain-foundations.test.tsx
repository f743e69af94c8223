import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AvatarEngine } from '@parla/shared/enums';
import { buildBrainCatalogue } from '@parla/shared/provider-urls';
import { defaultBrainForm, formsToPipeline } from '@parla/shared/schemas/brain-pipeline';
import { CUSTOM_LLM_LABEL, CUSTOM_LLM_MESSAGES } from '@parla/shared/schemas/custom-llm';
import type { BrainChange } from '../lib/brain-draft';
import { BrainFoundations, NO_SERVER_LLM_OPTION, NO_SERVER_LLM_WARNING } from './brain-foundations';
import { BROWSER_SPEECH_SIMPLE, SERVER_SPEECH_SIMPLE } from './speech-source';

const catalogue = buildBrainCatalogue();
const calls: { url: string; body: unknown }[] = [];
let serverLlm: boolean | undefined;
let serverSpeech: boolean | undefined;

beforeEach(() => {
  calls.length = 0;
  serverLlm = undefined;
  serverSpeech = undefined;
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ url, body });
    const json = (data: unknown) => new Response(JSON.stringify(data), { status: 200, headers: { 'content-type': 'application/json' } });
    if (url === '/api/brain/catalogue')
      return json({
        ...catalogue,
        ...(serverLlm === undefined ? {} : { serverLlm }),
        ...(serverSpeech === undefined ? {} : { serverSpeech }),
      });
    if (url === '/api/third_party/agent_check') {
      const id = (body as { agent_id: string }).agent_id;
      return json(id === 'agent_public_0123' ? { status: 'public' } : { status: 'invalid_agent_id', message: 'Agent ID not found' });
    }
    if (url === '/api/llm/models') {
      const b = body as { baseUrl: string; custom?: boolean };
      if ((body as { apiKey: string }).apiKey.includes('unlisted'))
        return new Response(JSON.stringify({ status: 'ERROR', code: 1001, errors: ['The provider did not answer.'] }), {
          status: 502,
          headers: { 'content-type': 'application/json' },
        });
      if (b.custom && b.baseUrl.includes('quiet'))
        return new Response(JSON.stringify({ status: 'ERROR', code: 1001, errors: ['Invalid URL or API Key provided.'] }), {
          status: 400,
          headers: { 'content-type': 'application/json' },
        });
      return json({ models: ['house-model-large', 'house-model-small'] });
    }
    return new Response('{}', { status: 404 });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function setup(nlpEngine: AvatarEngine = AvatarEngine.EchoTest) {
  const onChange = vi.fn<(c: BrainChange) => void>();
  const saved = {
    setupMode: 'Simple' as const,
    nlpEngine,
    realtime: false,
    pipeline: formsToPipeline(defaultBrainForm(catalogue), {}, catalogue),
  };
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <BrainFoundations draft={saved} saved={saved} onChange={onChange} />
    </QueryClientProvider>,
  );
  return { onChange };
}

describe('Brain → FOUNDATIONS', () => {
  it("marks the saved mode 'currently set' and offers each mode's engines", { timeout: 20_000 }, async () => {
    const user = userEvent.setup();
    setup();
    expect(await screen.findByText('currently set')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Avatar Engine' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Echo', 'Large Language Model', 'REST Endpoint']);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('radio', { name: 'Speech to Speech' }));
    expect(screen.getByRole('combobox', { name: 'Avatar Engine' })).toHaveTextContent('Parla Realtime');
    expect(screen.getByText('None: the engine listens itself.')).toBeInTheDocument();
  });

  it('hands changes to the editor in the saved shape, not the state it opened with', { timeout: 20_000 }, async () => {
    const user = userEvent.setup();
    const { onChange } = setup();
    await screen.findByText('currently set');
    expect(onChange).not.toHaveBeenCalled();
    await user.click(screen.getByRole('radio', { name: '3rd Party AI' }));
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    expect(onChange.mock.lastCall![0]).toMatchObject({
      setupMode: 'None',
      nlpEngine: AvatarEngine.Ten,
      pipeline: { llm: { provider: 'none' }, stt: { provider: 'none' }, tts: { provider: 'none' } },
    });
  });

  it('checks the agent id after typing stops and shows the outcome', { timeout: 20_000 }, async () => {
    const user = userEvent.setup();
    const { onChange } = setup();
    await screen.findByText('currently set');
    await user.click(screen.getByRole('radio', { name: '3rd Party AI' }));
    await user.click(screen.getByRole('combobox', { name: 'Avatar Engine' }));
    await user.click(screen.getByRole('option', { name: 'ElevenLabs Conversational AI' }));
    const id = screen.getByRole('textbox', { name: /Agent ID/ });
    await user.type(id, 'agent_1');
    expect(await screen.findByText('Agent ID is too short')).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/api/third_party/agent_check')).toHaveLength(0);
    await user.clear(id);
    await user.type(id, 'agent_public_0123');
    expect(await screen.findByText('Public agent: it works without an API key.', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/api/third_party/agent_check')).toHaveLength(1);
    await waitFor(() =>
      expect(onChange.mock.lastCall![0].pipeline.third_party).toMatchObject({
        agent_id: 'agent_public_0123',
        is_public: true,
        connection_type: 'webrtc',
      }),
    );
    await user.clear(id);
    await user.type(id, 'agent_nobody_0123');
    const engine = screen.getByRole('region', { name: 'Avatar Engine' });
    expect(await within(engine).findByText('Agent ID not found', {}, { timeout: 3000 })).toBeInTheDocument();
  });

  it(
    'offers a custom OpenAI-compatible base URL in Composite mode: checked, its models listed, or typed when they cannot be',
    { timeout: 60_000 },
    async () => {
      const user = userEvent.setup();
      const { onChange } = setup();
      await screen.findByText('currently set');
      await user.click(screen.getByRole('radio', { name: 'Composite (cascading)' }));
      await user.click(screen.getByRole('combobox', { name: 'Avatar Engine' }));
      await user.click(screen.getByRole('option', { name: 'Large Language Model' }));
      await user.click(screen.getByRole('combobox', { name: 'Base URL' }));
      const options = screen.getAllByRole('option').map((o) => o.textContent);
      expect(options).toHaveLength(11);
      expect(options.at(-1)).toBe(CUSTOM_LLM_LABEL);
      await user.click(screen.getByRole('option', { name: CUSTOM_LLM_LABEL }));
      const url = screen.getByRole('textbox', { name: /Custom base URL/ });
      // Addresses and keys are pasted, as people enter them (typed, each key re-renders the form).
      await user.click(url);
      await user.paste('ftp://llm.example.com');
      await user.tab();
      expect(await screen.findByText(CUSTOM_LLM_MESSAGES.baseUrlInvalid)).toBeInTheDocument();
      await user.clear(url);
      await user.paste('https://LLM.example.com/v1/');
      await waitFor(() => expect(screen.queryByText(CUSTOM_LLM_MESSAGES.baseUrlInvalid)).not.toBeInTheDocument());
      await user.click(screen.getByLabelText(/^API Key/));
      await user.paste('sk-house-0123456789');
      await waitFor(() => expect(calls.some((c) => c.url === '/api/llm/models')).toBe(true), { timeout: 3000 });
      expect(calls.find((c) => c.url === '/api/llm/models')!.body).toEqual({
        baseUrl: 'https://LLM.example.com/v1/',
        apiKey: 'sk-house-0123456789',
        custom: true,
      });
      await user.click(screen.getByRole('combobox', { name: 'Model' }));
      await user.click(await screen.findByRole('option', { name: 'house-model-small' }));
      await waitFor(() =>
        expect(onChange.mock.lastCall![0].pipeline.llm).toMatchObject({
          provider: 'custom',
          base_url: 'https://llm.example.com/v1',
          model: 'house-model-small',
        }),
      );

      // A server that cannot list its models: the model is typed instead.
      await user.clear(url);
      await user.paste('https://quiet.example.com/v1');
      const typed = await screen.findByRole('textbox', { name: /^Model/ }, { timeout: 3000 });
      expect(screen.getByText(/The model list could not be fetched: type the model name\./)).toBeInTheDocument();
      await user.type(typed, 'quiet-7b');
      await waitFor(() =>
        expect(onChange.mock.lastCall![0].pipeline.llm).toMatchObject({
          provider: 'custom',
          base_url: 'https://quiet.example.com/v1',
          model: 'quiet-7b',
          api_key: 'sk-house-0123456789',
        }),
      );

      // Back to a listed provider: the spec's rule clears model and key; Simple mode never offers it.
      await user.click(screen.getByRole('combobox', { name: 'Base URL' }));
      await user.click(screen.getByRole('option', { name: /^OpenAI/ }));
      expect(screen.queryByRole('textbox', { name: /Custom base URL/ })).not.toBeInTheDocument();
      await user.click(screen.getByRole('radio', { name: /^Simple/ }));
      await user.click(screen.getByRole('combobox', { name: 'Avatar Engine' }));
      await user.click(screen.getByRole('option', { name: 'Large Language Model' }));
      expect(screen.getByRole('combobox', { name: 'Base URL' })).toHaveAttribute('aria-disabled', 'true');
      expect(screen.getByRole('combobox', { name: 'Base URL' })).toHaveTextContent('Groq');
      expect(screen.queryByRole('textbox', { name: /Custom base URL/ })).not.toBeInTheDocument();
    },
  );

  it('lets the model be typed for a listed provider whose model list cannot be read', { timeout: 60_000 }, async () => {
    const user = userEvent.setup();
    const { onChange } = setup();
    await screen.findByText('currently set');
    await user.click(screen.getByRole('radio', { name: 'Composite (cascading)' }));
    await user.click(screen.getByRole('combobox', { name: 'Avatar Engine' }));
    await user.click(screen.getByRole('option', { name: 'Large Language Model' }));
    await user.click(screen.getByRole('combobox', { name: 'Base URL' }));
    await user.click(screen.getByRole('option', { name: /^OpenAI/ }));
    await user.click(screen.getByLabelText(/^API Key/));
    await user.paste('sk-unlisted-0123456789');
    const typed = await screen.findByRole('textbox', { name: /^Model/ }, { timeout: 3000 });
    expect(screen.getByText(/The provider did not answer\..*type the model name/)).toBeInTheDocument();
    await user.type(typed, 'gpt-4o-mini');
    await waitFor(() => expect(onChange.mock.lastCall![0].pipeline.llm).toMatchObject({ model: 'gpt-4o-mini' }));
  });

  it(
    'refuses Simple LLM in the engine list, with the reason, and warns before saving when the server has no language model',
    { timeout: 30_000 },
    async () => {
      serverLlm = false;
      const user = userEvent.setup();
      setup(AvatarEngine.LargeLanguageModel);
      await screen.findByText('currently set');
      expect(screen.getByRole('alert')).toHaveTextContent(NO_SERVER_LLM_WARNING);
      await user.click(screen.getByRole('combobox', { name: 'Avatar Engine' }));
      const option = screen.getByRole('option', { name: `Large Language Model — ${NO_SERVER_LLM_OPTION}` });
      expect(option).toHaveAttribute('aria-disabled', 'true');
      await user.click(screen.getByRole('option', { name: 'Echo' }));
      expect(screen.queryByText(NO_SERVER_LLM_WARNING)).not.toBeInTheDocument();
    },
  );

  it("says which speech a Simple avatar will get: the server's own when it has one, else the browser's", async () => {
    serverSpeech = true;
    setup();
    expect(await screen.findByTestId('speech-source')).toHaveTextContent(SERVER_SPEECH_SIMPLE);
    cleanup();
    serverSpeech = false;
    setup();
    expect(await screen.findByTestId('speech-source')).toHaveTextContent(BROWSER_SPEECH_SIMPLE);
  });
});
