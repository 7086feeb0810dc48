import {
  blockContactBody,
  contactListResponse,
  contactProfileResponse,
  contactImportResult,
  contactSchema,
  contactsImportRowBody,
  phoneImportResult,
  createContactBody,
  idParam,
  listContactsQuery,
  simpleListContactsQuery,
  updateContactBody,
} from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { CONTACTS_EXPORT_FILE, exportContacts } from './export.js';
import {
  contactProfile,
  createContact,
  deleteContact,
  getContact,
  listContacts,
  listContactsSimple,
  setContactActive,
  toggleAcceptAudio,
  toggleDisableBot,
  updateContact,
} from './service.js';
import { importFromPhone } from './phone-import.js';
import { importContactRow, uploadContacts } from './upload.js';

const params = z.object({ id: idParam });

/** Contacts of the inbox and the contact drawer (spec 2 §7): every user of the company; deleting needs contacts-page:deleteContact. */
export function registerContactRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['contacts'];
  const one = { 200: contactSchema };

  r.get('/contacts', { schema: { tags, querystring: listContactsQuery, response: { 200: contactListResponse } }, onRequest: authenticate }, async (req) =>
    listContacts(ctx, caller(req), req.query),
  );

  r.get('/contacts/list', { schema: { tags, querystring: simpleListContactsQuery, response: { 200: z.array(contactSchema) } }, onRequest: authenticate }, async (req) =>
    listContactsSimple(ctx, caller(req), req.query.name),
  );

  r.get(
    '/contacts/profile/:number',
    { schema: { tags, params: z.object({ number: z.string().max(60) }), response: { 200: contactProfileResponse } }, onRequest: authenticate },
    async (req) => contactProfile(ctx, caller(req), req.params.number),
  );

  r.get('/contacts/export', { schema: { tags }, onRequest: authenticate }, async (req, reply) => {
    const file = await exportContacts(ctx, caller(req));
    return reply
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${CONTACTS_EXPORT_FILE}"`)
      .send(file);
  });

  r.post(
    '/contacts/upload',
    { schema: { tags, consumes: ['multipart/form-data'], response: { 200: contactImportResult } }, onRequest: authenticate },
    async (req) => uploadContacts(ctx, caller(req), req),
  );

  r.post('/contacts/import', { schema: { tags, response: { 200: phoneImportResult } }, onRequest: authenticate }, async (req) =>
    importFromPhone(ctx, caller(req), 'contacts'),
  );

  r.post('/contacts/import/chats', { schema: { tags, response: { 200: phoneImportResult } }, onRequest: authenticate }, async (req) =>
    importFromPhone(ctx, caller(req), 'chats'),
  );

  r.post('/contactsImport', { schema: { tags, body: contactsImportRowBody, response: one }, onRequest: authenticate }, async (req) =>
    importContactRow(ctx, caller(req), req.body),
  );

  r.get('/contacts/:id', { schema: { tags, params, response: one }, onRequest: authenticate }, async (req) => getContact(ctx, caller(req), req.params.id));

  r.post('/contacts', { schema: { tags, body: createContactBody, response: one }, onRequest: authenticate }, async (req) =>
    createContact(ctx, caller(req), req.body),
  );

  r.put('/contacts/toggleAcceptAudio/:id', { schema: { tags, params, response: one }, onRequest: authenticate }, async (req) =>
    toggleAcceptAudio(ctx, caller(req), req.params.id),
  );

  r.put('/contacts/toggleDisableBot/:id', { schema: { tags, params, response: one }, onRequest: authenticate }, async (req) =>
    toggleDisableBot(ctx, caller(req), req.params.id),
  );

  r.put('/contacts/block/:id', { schema: { tags, params, body: blockContactBody, response: one }, onRequest: authenticate }, async (req) =>
    setContactActive(ctx, caller(req), req.params.id, req.body.active),
  );

  r.put('/contacts/:id', { schema: { tags, params, body: updateContactBody, response: one }, onRequest: authenticate }, async (req) =>
    updateContact(ctx, caller(req), req.params.id, req.body),
  );

  r.delete('/contacts/:id', { schema: { tags, params, response: { 200: z.object({}) } }, onRequest: authenticate }, async (req) => {
    await deleteContact(ctx, caller(req), req.params.id);
    return {};
  });
}
