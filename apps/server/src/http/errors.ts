import type { ErrorBody, ErrorCode, FieldIssue } from '@balcao/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';

/** The one error type of the API: a catalogue code and its HTTP status. */
export class AppError extends Error {
  constructor(
    public readonly code: ErrorCode,
    public readonly status: number,
    message?: string,
    public readonly issues?: FieldIssue[],
    options?: ErrorOptions,
  ) {
    super(message ?? code, options);
    this.name = 'AppError';
  }
}

const fieldPath = (path: readonly PropertyKey[]) => path.map(String).join('.');

/** Unique constraints whose violation (a lost race with a concurrent insert) has a catalogue code. */
const UNIQUE_VIOLATIONS: Record<string, ErrorCode> = {
  users_email_unique: 'ERR_EMAIL_ALREADY_EXISTS',
  companies_name_unique: 'ERR_COMPANY_NAME_EXISTS',
  whatsapps_token_key: 'ERR_TOKEN_IN_USE',
  whatsapps_facebook_page_key: 'ERR_PAGE_ALREADY_CONNECTED',
  whatsapps_instagram_account_key: 'ERR_PAGE_ALREADY_CONNECTED',
  queues_company_id_name_key: 'ERR_QUEUE_NAME_ALREADY_EXISTS',
  queues_company_id_color_key: 'ERR_QUEUE_COLOR_ALREADY_EXISTS',
};

function uniqueViolation(err: unknown): ErrorCode | undefined {
  for (let e = err as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; e = e.cause as typeof e, depth++) {
    if (e.code === '23505' && typeof e.constraint === 'string') return UNIQUE_VIOLATIONS[e.constraint];
  }
  return undefined;
}

function statusOf(err: unknown): number | undefined {
  const status = (err as Partial<FastifyError>)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/** Maps anything thrown by a route (or by Fastify itself) to `{ error, message?, issues? }`. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err, req, reply) => {
    const send = (status: number, body: ErrorBody) => reply.status(status).send(body);

    if (err instanceof AppError) {
      // A dependency failing (its cause says which): the client gets the code, the log the reason.
      if (err.status >= 500) req.log.error({ err }, 'dependency error');
      const body: ErrorBody = { error: err.code };
      if (err.message !== err.code) body.message = err.message;
      if (err.issues) body.issues = err.issues;
      return send(err.status, body);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? 'invalid',
      }));
      return send(400, { error: 'ERR_VALIDATION', issues });
    }
    if (err instanceof ZodError) {
      return send(400, { error: 'ERR_VALIDATION', issues: err.issues.map((i) => ({ path: fieldPath(i.path), message: i.message })) });
    }

    const conflict = uniqueViolation(err);
    if (conflict) return send(409, { error: conflict });

    // Multipart limits (@fastify/multipart): one file too large, too many files in one request.
    const code = (err as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') return send(413, { error: 'ERR_FILE_TOO_LARGE' });
    if (code === 'FST_FILES_LIMIT') return send(413, { error: 'ERR_TOO_MANY_FILES' });

    const status = statusOf(err);
    if (status === 413) return send(413, { error: 'ERR_PAYLOAD_TOO_LARGE' });
    if (status === 429) return send(429, { error: 'ERR_TOO_MANY_REQUESTS' });
    if (status === 404) return send(404, { error: 'ERR_NOT_FOUND' });
    // Malformed JSON, empty body, unsupported content type, schema errors from plain JSON schemas…
    if (status !== undefined && status >= 400 && status < 500) {
      return send(400, { error: 'ERR_VALIDATION', message: (err as Error).message });
    }

    req.log.error({ err }, 'unhandled error');
    return send(500, { error: 'ERR_INTERNAL' });
  });
}

/** `{ error: "ERR_NOT_FOUND" }` for every URL no route matches; the 404 runs the hooks of the scope that calls this. */
export function registerNotFoundHandler(app: FastifyInstance): void {
  app.setNotFoundHandler((_req, reply) => reply.status(404).send({ error: 'ERR_NOT_FOUND' } satisfies ErrorBody));
}
