// GET /api/tts/embedded_sample/:voice (docs/api.md "Which voice speaks when"): the Brain tab's
// "Play sample" of a voice shipped with the server, as audio/wav. POST /api/tts/preview: the
// editor's preview says a reply in the draft's embedded voice (the audio, visemes and words a
// conversation's frame carries). Validate → authenticate → reply.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { embeddedSampleParams, previewSpeechRequest, type PreviewSpeech } from '@parla/shared/embedded-voices';
import type { AppContext } from '../context';
import { AppError } from '../lib/errors';
import { embeddedSynthesize, embeddedTts } from './engines/embedded/embedded-tts';
import { VoiceSamples } from './engines/embedded/voice-sample';
import type { Runtime } from './runtime';

/** A person previewing voices clicks a few times; the samples are cached, so this only bounds abuse. */
const SAMPLE_RATE_LIMIT = { rateLimit: { max: 60, timeWindow: 60_000 } };
/** The preview says its greeting and what the customer types to it: a person's pace. */
const PREVIEW_RATE_LIMIT = { rateLimit: { max: 60, timeWindow: 60_000 } };

export function voiceSampleRoutes(ctx: AppContext, runtime: Runtime): FastifyPluginAsyncZod {
  const samples = runtime.voices ? new VoiceSamples(runtime.voices) : null;
  return async (app) => {
    app.get(
      '/api/tts/embedded_sample/:voice',
      { schema: { params: embeddedSampleParams }, config: { auth: 'user', ...SAMPLE_RATE_LIMIT } },
      async (request, reply) => {
        // EMBEDDED_VOICE=false: no voice ships with this server.
        if (!samples) throw AppError.notFound('Built-in voice');
        let wav: Buffer;
        try {
          wav = await samples.wav(request.params.voice);
        } catch (err) {
          ctx.log.warn({ err: String(err), voice: request.params.voice }, 'embedded voice sample failed');
          throw AppError.server();
        }
        return reply.header('content-type', 'audio/wav').header('cache-control', 'private, max-age=3600').send(wav);
      },
    );
    app.post(
      '/api/tts/preview',
      { schema: { body: previewSpeechRequest }, config: { auth: 'user', ...PREVIEW_RATE_LIMIT } },
      async (request): Promise<PreviewSpeech> => {
        if (!runtime.voices) throw AppError.notFound('Built-in voice');
        const { voice, text } = request.body;
        try {
          // Served in turn with the conversations (the customer's own queue in the worker pool).
          const said = await embeddedSynthesize(runtime.voices, embeddedTts(voice), text, `preview-${request.user!.id}`);
          return { ...said, format: 'pcm16', sampleRate: said.sampleRate ?? 16000 };
        } catch (err) {
          ctx.log.warn({ err: String(err), voice }, 'embedded voice preview failed');
          throw AppError.server();
        }
      },
    );
  };
}
