/** Turns every failure into the envelope: validation → 400 naming the field, bad JSON → 400, unexpected → 500. */
import type { ErrorObject } from 'ajv';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ErrorCode, FieldMessage, messageFor } from '../../domain/errors/catalogue.ts';
import { AppError, fieldErrors } from './envelope.ts';
import { requestLang } from './lang.ts';
import { validationMessage, validationProblem } from './validation.ts';

const MALFORMED_BODY = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY']);

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const lang = requestLang(request);
    if (error instanceof AppError) {
      const msg = error.localized(lang);
      return reply.status(error.httpStatus).send({ code: error.code, msg, data: error.data, ...(error.fields ? { errors: fieldErrors(error.fields, lang, msg) } : {}) });
    }
    if (error.validation) {
      const ajvErrors = error.validation as unknown as ErrorObject[];
      const msg = validationMessage(ajvErrors, lang);
      // Beside the sentence, the field's problem as a code, so a form shows it under the field and words it again after a language switch.
      const v = validationProblem(ajvErrors);
      const errors = v?.field ? { errors: fieldErrors({ [v.field]: v.problem }, lang, msg) } : {};
      return reply.status(400).send({ code: ErrorCode.BadRequest, msg, data: null, ...errors });
    }
    if (error.code && MALFORMED_BODY.has(error.code)) {
      return reply.status(400).send({ code: ErrorCode.BadRequest, msg: FieldMessage.malformedBody(lang), data: null });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Framework client errors (unsupported media type, body too large, ...): a plain request error.
      const code = messageFor(status, lang) ? status : ErrorCode.BadRequest;
      request.log.info({ err: error }, 'client error');
      return reply.status(code).send({ code, msg: messageFor(code, lang), data: null });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send({ code: ErrorCode.Internal, msg: messageFor(ErrorCode.Internal, lang), data: null });
  });
}
