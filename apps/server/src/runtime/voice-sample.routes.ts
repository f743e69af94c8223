// GET /api/tts/embedded_sample/:voice (docs/api.md "Which voice speaks when"): the Brain tab's
// "Play sample" of a voice shipped with the server, as audio/wav. Validate → authenticate → reply.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { embeddedSampleParams } from '@parla/shared/embedded-voices';
import type { AppContext } from '../context';
import { AppError } from '../lib/errors';
import { VoiceSamples } from './engines/embedded/voice-sample';
import type { Runtime } from './runtime';

/** A person previewing voices clicks a few times; the samples are cached, so this only bounds abuse. */
const SAMPLE_RATE_LIMIT = { rateLimit: { max: 60, timeWindow: 60_000 } };

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
  };
}
