/**
 * Every error that crosses the process boundary has one of these codes: the answer of a
 * route (`Result`), the end of a turn (`turn_end`), a voice error. The list is closed: a
 * consumer (the window, the CLI) decides what to show and what to offer from the code and
 * its `details`, never from the words of the message, which are for the person.
 * docs/architecture.md has a table of them: when each happens, what the user sees, what to do.
 */
import { z } from 'zod'

export const errorCodeSchema = z.enum([
  // any request
  /** the input is not valid; `details.fields` names what is wrong where */
  'bad_request',
  /** not allowed: a window that is not Cairn's, a command the user did not allow */
  'forbidden',
  /** the session, message, assistant, server or file named does not exist */
  'not_found',
  /** the request clashes with how things are now (a name taken, a turn running) */
  'conflict',
  /** this host, or a server Cairn relies on, cannot do it now */
  'unavailable',
  /** the engine did not answer in time (browser mode's connection) */
  'timeout',
  /** a bug: logged with its stack; `details.id` finds the log line */
  'internal',

  // storage
  /** cairn.db is damaged (at opening, or a query met a damaged page later) */
  'database_damaged',
  /** the data directory cannot be written */
  'data_dir_not_writable',
  /** cairn.db was written by a newer version of Cairn */
  'schema_too_new',
  /** a save failed for another reason (a disk that refuses writes) */
  'storage',

  // what a turn needs before it runs
  /** no provider is configured and no local server answers */
  'no_provider',
  /** no model is configured and the provider offers none to choose */
  'no_model',
  /** the session named does not exist */
  'no_session',
  /** the assistant named does not exist */
  'no_assistant',
  /** another Cairn window or process holds the session (or the settings file) */
  'busy',

  // local models
  /** a model file that is not GGUF, is cut short, or cannot be read */
  'model_file_invalid',
  /** a local model needs more memory than this machine has (said before loading or downloading) */
  'not_enough_memory',
  /** the model hub (`localModels.hubURL`) cannot be reached, or answers what Cairn cannot read */
  'hub_unreachable',
  /** a model download stopped before its end, or its sha256 is not the hub's */
  'download_failed',

  // attachments
  /** a file cannot be attached: too large, too many, a type Cairn cannot read, damaged, locked */
  'attachment_refused',
  /** the message carries images and the model is known not to see images */
  'model_cannot_see',

  // importing chats
  /** the file given to import is not an export Cairn reads (or cannot be read at all) */
  'import_unreadable',

  // installing MCP servers
  /** the MCP registry (`mcpRegistryUrl`) cannot be reached, or answers what Cairn cannot read */
  'registry_unreachable',

  // the desktop shell
  /** another app holds the global shortcut asked for; `details.shortcut` names it */
  'shortcut_taken',

  // the model provider
  /** the API key was rejected (401) */
  'auth',
  /** the provider refused access (403) */
  'access_denied',
  /** the provider does not know the model */
  'model_not_found',
  /** the provider answered 404 for something that is not a model: the base URL is wrong */
  'endpoint_not_found',
  /** the provider refused the request as malformed (400, 422) */
  'request_rejected',
  /** the provider refused the request as too long for the model's context */
  'context_overflow',
  /** too many requests (429) */
  'rate_limited',
  /** the provider failed (5xx, 408, 409) */
  'server',
  /** the provider could not be reached, or the connection broke */
  'network',
  /** the answer's stream ended before the answer did */
  'interrupted',
  /** a successful answer whose body is not an event stream */
  'bad_response',
  /** the provider sent nothing for too long */
  'idle_timeout',
  /** stopped by the user or by the turn's deadline */
  'aborted',
  /** the answer passed the turn's size limit and was cut there */
  'answer_too_long',
  /** the provider asked to wait longer than Cairn will */
  'retry_after_too_long',
  /** the provider failed in a way Cairn does not classify (an unusual status) */
  'unknown',
])

export type ErrorCode = z.infer<typeof errorCodeSchema>

/** The codes of a failed request to the model provider. */
export type ProviderErrorCode = Extract<
  ErrorCode,
  | 'auth'
  | 'access_denied'
  | 'model_not_found'
  | 'endpoint_not_found'
  | 'request_rejected'
  | 'context_overflow'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'interrupted'
  | 'bad_response'
  | 'idle_timeout'
  | 'aborted'
  | 'answer_too_long'
  | 'retry_after_too_long'
  | 'unknown'
>

/** The codes of what a turn needs before it runs. */
export type SetupErrorCode = Extract<
  ErrorCode,
  'no_provider' | 'no_model' | 'no_session' | 'no_assistant' | 'busy'
>

/** What a refusal of the input says about it: the input's paths (`assistant.name`) and the problem at each. */
export interface FieldDetails {
  fields: Record<string, string>
}

export interface ProviderErrorDetails {
  /** the provider's base URL (a session records its provider by it) */
  provider?: string
  /** the HTTP status the provider answered */
  status?: number
  /** trying again later may work (a rate limit, a server or network failure) */
  retryable: boolean
  /** how long the provider asked to wait (`Retry-After`) */
  retryAfterMs?: number
}

/** Why a file cannot be attached. */
export type AttachmentProblem =
  | 'too_large'
  | 'too_many'
  | 'message_too_large'
  | 'unsupported_type'
  | 'archive'
  | 'damaged'
  | 'password_protected'
  | 'too_complex'
  | 'unreadable'
  | 'expired'

/** The file an `attachment_refused` is about, and why. */
export interface AttachmentRefusalDetails {
  /** the file's name as the user gave it */
  file: string
  problem: AttachmentProblem
  /** what the file was found to be, by its content (`unsupported_type`, `archive`) */
  detectedType?: string
}

/** Why a file cannot be imported: not there, not an export, an archive without conversations, damaged. */
export type ImportFileProblem = 'not_found' | 'not_an_export' | 'no_conversations' | 'damaged'

/** The details a code carries, for the codes that carry any. */
export interface ErrorDetailsByCode {
  bad_request: FieldDetails
  conflict: FieldDetails
  /** the short id that is in the log line too, for the user to quote */
  internal: { id: string }
  /** the damaged file */
  database_damaged: { path: string }
  /** the directory */
  data_dir_not_writable: { path: string }
  attachment_refused: AttachmentRefusalDetails
  /** the file's name and what is wrong with it */
  import_unreadable: { file: string; problem: ImportFileProblem }
  shortcut_taken: { shortcut: string }
  /** the model, and the images it would have been sent */
  model_cannot_see: { model: string; files: string[] }
  auth: ProviderErrorDetails
  access_denied: ProviderErrorDetails
  model_not_found: ProviderErrorDetails
  endpoint_not_found: ProviderErrorDetails
  request_rejected: ProviderErrorDetails
  context_overflow: ProviderErrorDetails
  rate_limited: ProviderErrorDetails
  server: ProviderErrorDetails
  network: ProviderErrorDetails
  interrupted: ProviderErrorDetails
  bad_response: ProviderErrorDetails
  idle_timeout: ProviderErrorDetails
  aborted: ProviderErrorDetails
  answer_too_long: ProviderErrorDetails
  retry_after_too_long: ProviderErrorDetails
  unknown: ProviderErrorDetails
}

/** The details of `C` (undefined for a code that carries none). */
export type ErrorDetails<C extends ErrorCode> = C extends keyof ErrorDetailsByCode
  ? ErrorDetailsByCode[C]
  : undefined

/**
 * An error as it crosses the boundary. Discriminated by `code`: `info.code === 'bad_request'`
 * narrows `info.details` to `{ fields }`.
 */
export type ErrorInfo = {
  [C in ErrorCode]: {
    code: C
    /** what went wrong and what to do, for the person */
    message: string
    details?: ErrorDetails<C>
  }
}[ErrorCode]
