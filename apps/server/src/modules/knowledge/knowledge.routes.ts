// The knowledge API (design/api.md "Knowledge"), authenticated by the short-lived JWT of
// /api/token/jwt (config auth 'kb'). Validate → authenticate → service → reply.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  collectionRequest,
  crawlRequest,
  crawlScheduleRequest,
  createItemRequest,
  createItemsRequest,
  idParams,
  searchRequest,
} from '@parla/shared/schemas/knowledge';
import { ErrorCode } from '@parla/shared/errors';
import { pageQuery } from '@parla/shared/schemas/paging';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { sendStoredFile } from '../../lib/file-response';
import { multipartClientError, stallGuarded } from '../../lib/multipart';
import { requireUser } from '../../plugins/auth';
import { crawlSite } from './knowledge.crawl';
import { setCrawlSchedule } from './knowledge.recrawl';
import { FetchProblem } from './knowledge.fetch';
import { uploadKnowledgeFile } from './knowledge.files';
import { searchChunks } from './knowledge.search';
import * as knowledge from './knowledge.service';

const kb = { auth: 'kb' as const };
const malformedUpload = () =>
  AppError.invalid('The upload could not be read. Send multipart/form-data with the document in the field file.', 'FILE_REQUIRED');
/** Pasted text may be long (500,000 characters); JSON elsewhere stays at the 1 MB default. */
const ITEM_BODY_LIMIT = 4 * 1024 * 1024;
const BATCH_BODY_LIMIT = 8 * 1024 * 1024;

export function knowledgeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/kb/v1/collections', { config: kb }, (request) => knowledge.listCollections(ctx, requireUser(request).id));

    app.post('/kb/v1/collections', { schema: { body: collectionRequest }, config: kb }, (request) =>
      knowledge.createCollection(ctx, requireUser(request).id, request.body),
    );

    app.put('/kb/v1/collections/:id', { schema: { params: idParams, body: collectionRequest }, config: kb }, (request) =>
      knowledge.updateCollection(ctx, requireUser(request).id, request.params.id, request.body),
    );

    app.delete('/kb/v1/collections/:id', { schema: { params: idParams }, config: kb }, async (request) => {
      await knowledge.deleteCollection(ctx, requireUser(request).id, request.params.id);
      return { status: 'OK' };
    });

    app.get('/kb/v1/collections/:id/items', { schema: { params: idParams, querystring: pageQuery }, config: kb }, (request) =>
      knowledge.listItems(ctx, requireUser(request).id, request.params.id, request.query),
    );

    app.post(
      '/kb/v1/collections/:id/items',
      { schema: { params: idParams, body: createItemRequest }, config: kb, bodyLimit: ITEM_BODY_LIMIT },
      (request) => knowledge.createItem(ctx, requireUser(request).id, request.params.id, request.body),
    );

    app.post(
      '/kb/v1/collections/:id/items/batch',
      { schema: { params: idParams, body: createItemsRequest }, config: kb, bodyLimit: BATCH_BODY_LIMIT },
      (request) => knowledge.createItems(ctx, requireUser(request).id, request.params.id, request.body.items),
    );

    app.delete('/kb/v1/items/:id', { schema: { params: idParams }, config: kb }, async (request) => {
      await knowledge.deleteItem(ctx, requireUser(request).id, request.params.id);
      return { status: 'OK' };
    });

    app.post('/kb/v1/items/:id/retry', { schema: { params: idParams }, config: kb }, (request) =>
      knowledge.retryItem(ctx, requireUser(request).id, request.params.id),
    );

    app.get('/kb/v1/items/:id/chunks', { schema: { params: idParams }, config: kb }, (request) =>
      knowledge.itemDetail(ctx, requireUser(request).id, request.params.id),
    );

    app.post('/kb/v1/items/:id/resync', { schema: { params: idParams }, config: kb }, (request) =>
      knowledge.resyncItem(ctx, requireUser(request).id, request.params.id),
    );

    app.post('/kb/v1/files', { config: { ...kb, rateLimit: { max: 60, timeWindow: 60_000 } } }, async (request) => {
      if (!request.isMultipart()) throw AppError.invalid('File is required', 'FILE_REQUIRED');
      const ownerId = requireUser(request).id;
      // A body the parser cannot read is the client's error (400), not ours.
      try {
        for await (const part of stallGuarded(request.files(), request, malformedUpload))
          return await uploadKnowledgeFile(ctx, ownerId, part);
        return await uploadKnowledgeFile(ctx, ownerId, undefined);
      } catch (err) {
        throw multipartClientError(err, malformedUpload) ?? err;
      }
    });

    app.get('/kb/v1/files/:id', { schema: { params: idParams }, config: kb }, async (request, reply) => {
      const file = await ctx.files.find(ctx.db, requireUser(request).id, request.params.id);
      if (!file || file.kind !== 'knowledge') throw AppError.notFound('File');
      const name = (file.original_name ?? 'document').replace(/[^\w. -]/g, '_');
      reply.header('content-type', file.content_type).header('content-disposition', `attachment; filename="${name}"`);
      return sendStoredFile(ctx.files, ctx.db, request, reply, file, { cacheControl: 'private, no-cache', what: 'File' });
    });

    app.post(
      '/kb/v1/crawl',
      { schema: { body: crawlRequest }, config: { ...kb, rateLimit: { max: ctx.config.CRAWL_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } } },
      async (request) => {
        requireUser(request);
        try {
          return await crawlSite(ctx, request.body.url, request.body.limit, request.body);
        } catch (err) {
          // Spec 4 §7: on error the screen reads the message from the answer's `message`.
          if (err instanceof FetchProblem)
            throw new AppError(ErrorCode.InvalidOrMissingParams, 400, [err.message], {
              ...(err.refused ? { failReason: 'ADDRESS_REFUSED' as const } : {}),
              body: { message: err.message },
            });
          throw err;
        }
      },
    );

    app.put('/kb/v1/collections/:id/crawl-schedule', { schema: { params: idParams, body: crawlScheduleRequest }, config: kb }, (request) =>
      setCrawlSchedule(ctx, requireUser(request).id, request.params.id, request.body),
    );

    app.post('/kb/v1/search', { schema: { body: searchRequest }, config: kb }, (request) =>
      searchChunks(ctx, requireUser(request).id, request.body),
    );
  };
}
