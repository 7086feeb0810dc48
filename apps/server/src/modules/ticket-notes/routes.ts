import { createTicketNoteBody, idParam, listTicketNotesQuery, ticketNoteSchema } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { createNote, deleteNote, listNotes } from './service.js';

/** Ticket notes of the contact drawer (spec 2 §7 "Notes, tags"). */
export function registerTicketNoteRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['ticket-notes'];
  const auth = { onRequest: authenticate };

  r.get('/ticket-notes/list', { schema: { tags, querystring: listTicketNotesQuery, response: { 200: z.array(ticketNoteSchema) } }, ...auth }, async (req) =>
    listNotes(ctx, caller(req), req.query.ticketId, req.query.contactId),
  );
  r.post('/ticket-notes', { schema: { tags, body: createTicketNoteBody, response: { 200: ticketNoteSchema } }, ...auth }, async (req) =>
    createNote(ctx, caller(req), req.body),
  );
  r.delete('/ticket-notes/:id', { schema: { tags, params: z.object({ id: idParam }), response: { 200: z.object({}) } }, ...auth }, async (req) => {
    await deleteNote(ctx, caller(req), req.params.id);
    return {};
  });
}
