/**
 * An assistant as a JSON file (`assistants.export` / `.import`, `cairn assistants
 * export|import`): `{"cairnAssistant": 1, "assistant": {…}}` with what the user sets: no
 * id, no dates, and never a secret (a provider is named by its id; its key stays in the
 * secrets file). A file is read leniently (unknown keys are dropped) but every field it
 * has must be valid; what is wrong is named by its place in the file. An imported file does
 * not lower approvals by itself: a permission policy looser than the user's is applied only
 * when the user agreed (`allowPolicy`); otherwise the assistant keeps the user's.
 */
import {
  assistantFileSchema,
  type Assistant,
  type AssistantDraft,
  type AssistantFile,
} from '../../../src-preload/contract/assistants'
import type { PermissionPolicy } from '../../../src-preload/contract/dto'
import { isLooserPolicy } from '../../core/agent/permissions'
import { ExpectedError } from '../../core/errors'
import type { AppServices } from '../host/app-services'
import { fileSlug } from '../host/file-slug'

/** the text is not an exported assistant: what is wrong, and where in the file */
function notAnAssistant(message: string): ExpectedError<'bad_request'> {
  return new ExpectedError('bad_request', message)
}

/** the file's name: the assistant's name, lower case, letters and digits */
function assistantFilename(name: string): string {
  return `${fileSlug(name, 'assistant')}.assistant.json`
}

export function exportAssistant(assistant: Assistant): {
  filename: string
  mimeType: string
  content: string
} {
  const { id: _id, origin: _origin, createdAt: _c, updatedAt: _u, ...draft } = assistant
  const file: AssistantFile = { cairnAssistant: 1, assistant: draft }
  return {
    filename: assistantFilename(assistant.name),
    mimeType: 'application/json',
    content: `${JSON.stringify(file, null, 2)}\n`,
  }
}

/** The assistant in an exported file, checked; a file that is not one says why. */
function parseAssistantFile(text: string): AssistantDraft {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    throw notAnAssistant(`The file is not JSON: ${(e as Error).message}.`)
  }
  if (typeof value !== 'object' || value === null || !('cairnAssistant' in value))
    throw notAnAssistant('The file is not an exported assistant (it has no "cairnAssistant" key).')
  const parsed = assistantFileSchema.safeParse(value)
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.length ? i.path.join('.') : '(file)'}: ${i.message}`)
      .join('; ')
    throw notAnAssistant(`The assistant in the file is not valid: ${problems}.`)
  }
  return parsed.data.assistant
}

/**
 * Adds the file's assistant; a name already taken gets " (2)", " (3)", … A permission policy
 * looser than the settings' is left unset (the assistant follows the settings) unless
 * `allowPolicy`, and `policyNotApplied` names it.
 */
export function importAssistant(
  app: AppServices,
  text: string,
  opts: { allowPolicy?: boolean } = {},
): { assistant: Assistant; renamedFrom: string | null; policyNotApplied: PermissionPolicy | null } {
  const { permissionPolicy, ...rest } = parseAssistantFile(text)
  const looser =
    permissionPolicy !== undefined &&
    !opts.allowPolicy &&
    isLooserPolicy(permissionPolicy, app.settings.get().permissionPolicy)
  const draft: AssistantDraft =
    looser || permissionPolicy === undefined ? rest : { ...rest, permissionPolicy }
  const name = app.assistants.freeName(draft.name)
  const assistant = app.assistants.create({ ...draft, name })
  return {
    assistant,
    renamedFrom: name === draft.name.trim() ? null : draft.name.trim(),
    policyNotApplied: looser ? permissionPolicy : null,
  }
}
