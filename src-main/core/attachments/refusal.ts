/** The refusal of a file, said before anything is sent: which file, and why. */
import type { AttachmentProblem } from '../../../src-preload/contract/errors'
import { ExpectedError } from '../errors'

export class AttachmentRefused extends ExpectedError<'attachment_refused'> {
  constructor(
    readonly file: string,
    readonly problem: AttachmentProblem,
    message: string,
    detectedType?: string,
  ) {
    super('attachment_refused', message, {
      details: { file, problem, ...(detectedType ? { detectedType } : {}) },
    })
    this.name = 'AttachmentRefused'
  }
}

/** The message carries images and the model is known not to see images. */
export class ModelCannotSee extends ExpectedError<'model_cannot_see'> {
  constructor(model: string, files: string[]) {
    super(
      'model_cannot_see',
      `${model} cannot see images: pick a vision model or remove the ${files.length === 1 ? 'image' : 'images'} (${files.join(', ')}).`,
      { details: { model, files } },
    )
    this.name = 'ModelCannotSee'
  }
}
