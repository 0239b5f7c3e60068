/**
 * One multipart upload holding exactly one file (field `file`) and a few named text fields, streamed to a
 * temporary file beside its final home while it is hashed; the handler validates and renames it. Used by
 * every screen that uploads one file at a time (spec §5): upgrade packages, audio resources.
 * Nothing is left on disk when the upload is refused; each refusal is a 400 naming the field, in the
 * caller's words (`messages`), so the form shows it under the field.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { AppError, badField, fail } from './envelope.ts';
import type { Message } from './messages.ts';

export interface UploadMessages {
  notMultipart: Message;
  noFile: Message;
  oneFile: Message;
  tooBig: Message;
  unknownPart: (name: string) => Message;
  badUpload: Message;
}

export interface UploadOptions {
  /** Where the temporary file goes (the final file's folder, so the rename stays on one disk). */
  dir: string;
  /** The text fields the form may send; any other part is refused by name. */
  fields: readonly string[];
  /** @fastify/multipart limits (fileSize is the size cap the `tooBig` message states). */
  limits: Record<string, number>;
  /** The file's name when the browser sends none. */
  defaultName: string;
  /** Keep this many first bytes (content sniffing: a type is read from the bytes, never from the name). */
  headBytes?: number;
  messages: UploadMessages;
}

export interface SingleFileUpload {
  fields: Record<string, string>;
  fileName: string;
  size: number;
  sha256: string;
  /** The temporary file; the caller renames it into place or removes it. */
  tmp: string;
  head: Buffer;
}

export async function readSingleFileUpload(request: FastifyRequest, options: UploadOptions): Promise<SingleFileUpload> {
  const { messages } = options;
  if (!request.isMultipart()) throw fail.badRequest(messages.notMultipart);
  fs.mkdirSync(options.dir, { recursive: true });
  const fields: Record<string, string> = {};
  const allowed = new Set(options.fields);
  const headBytes = options.headBytes ?? 0;
  let file: Omit<SingleFileUpload, 'fields'> | undefined;
  try {
    for await (const part of request.parts({ limits: options.limits })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw badField(part.fieldname, messages.unknownPart(part.fieldname), 'unknown');
        }
        if (file) {
          part.file.resume();
          throw badField('file', messages.oneFile, 'oneFile');
        }
        const hash = createHash('sha256');
        const current = { fileName: part.filename || options.defaultName, size: 0, sha256: '', tmp: path.join(options.dir, `.upload-${randomUUID()}`), head: Buffer.alloc(0) };
        file = current;
        const out = fs.createWriteStream(current.tmp);
        for await (const chunk of part.file as AsyncIterable<Buffer>) {
          hash.update(chunk);
          if (current.head.length < headBytes) current.head = Buffer.concat([current.head, chunk.subarray(0, headBytes - current.head.length)]);
          current.size += chunk.length;
          if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
        await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
        if (part.file.truncated) throw badField('file', messages.tooBig, 'tooBig');
        current.sha256 = hash.digest('hex');
      } else {
        if (!allowed.has(part.fieldname)) throw badField(part.fieldname, messages.unknownPart(part.fieldname), 'unknown');
        fields[part.fieldname] = String(part.value).trim();
      }
    }
  } catch (err) {
    if (file) fs.rmSync(file.tmp, { force: true });
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code ?? '';
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw badField('file', messages.tooBig, 'tooBig');
    if (code === 'FST_FILES_LIMIT') throw badField('file', messages.oneFile, 'oneFile');
    throw fail.badRequest(messages.badUpload);
  }
  if (!file || file.size === 0) {
    if (file) fs.rmSync(file.tmp, { force: true });
    throw badField('file', messages.noFile, 'required');
  }
  return { fields, ...file };
}
