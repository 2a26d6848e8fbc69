/**
 * Files attached on the command line (`--attach <file>`, `/attach <path>` in `cairn chat`):
 * each read once, when it is given, through the same intake as the window's (an image made
 * ready to send, a document's text extracted in a worker), checked against the same limits.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { AttachmentPart, ContentPart } from '../../src-preload/contract/dto'
import { describeAttachment } from '../core/attachments/describe'
import { checkMessageParts, MB } from '../core/attachments/limits'
import { ExpectedError } from '../core/errors'
import type { AppServices } from '../services/host/app-services'
import { MessageError } from './message-parts'

/** Reads one file given by its path; a refusal is a `MessageError` naming it. */
export async function attachFile(app: AppServices, file: string): Promise<AttachmentPart> {
  const name = path.basename(file)
  const s = app.settings.get().attachments
  const max = Math.max(s.maxImageMB, s.maxDocumentMB) * MB
  let bytes: Uint8Array
  try {
    const stat = await fs.promises.stat(file)
    if (!stat.isFile()) throw new MessageError(`${file} is not a file.`)
    if (stat.size > max)
      throw new MessageError(
        `${name} is ${Math.round(stat.size / MB)} MB: no file larger than ${Math.round(max / MB)} MB can be attached (the settings attachments.maxImageMB and maxDocumentMB).`,
      )
    bytes = new Uint8Array(await fs.promises.readFile(file))
  } catch (e) {
    if (e instanceof MessageError) throw e
    throw new MessageError(`${file} cannot be read: ${(e as Error).message}`)
  }
  try {
    return await app.attachments.take({ name, bytes }, { pending: false })
  } catch (e) {
    if (e instanceof ExpectedError) throw new MessageError(e.message, e.code)
    throw e
  }
}

/** Every file of `files`, then the message's limits (count and total, with its resources). */
export async function attachFiles(
  app: AppServices,
  files: readonly string[],
  others: readonly ContentPart[] = [],
): Promise<AttachmentPart[]> {
  const parts: AttachmentPart[] = []
  for (const file of files) parts.push(await attachFile(app, file))
  checkParts(app, [...others, ...parts])
  return parts
}

/** the message's limits; a refusal is a `MessageError` */
export function checkParts(app: AppServices, parts: readonly ContentPart[]): void {
  try {
    checkMessageParts(parts, app.settings.get().attachments)
  } catch (e) {
    if (e instanceof ExpectedError) throw new MessageError(e.message, e.code)
    throw e
  }
}

/** `Attached report.pdf (PDF, 12 pages, 40 312 characters)` */
export function attachedLine(part: AttachmentPart): string {
  return `Attached ${describeAttachment(part)}`
}
