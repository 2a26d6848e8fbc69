import { basename } from 'node:path'
import type { ImportFileProblem } from '../../../src-preload/contract/errors'
import { ExpectedError } from '../../core/errors'

/**
 * The file given to import cannot be read as an export at all (nothing was imported):
 * `import_unreadable`, with the file's name and the problem. A file that breaks part way
 * is not this: what was read before is imported and the summary names where it broke.
 */
export class ImportUnreadableError extends ExpectedError<'import_unreadable'> {
  constructor(file: string, problem: ImportFileProblem, why: string) {
    super(
      'import_unreadable',
      `${basename(file)} cannot be imported: ${why}. Choose the conversations.json of a ChatGPT or Claude data export (or the .zip as downloaded), or a Cairn JSON export.`,
      { details: { file: basename(file), problem } },
    )
    this.name = 'ImportUnreadableError'
  }
}
