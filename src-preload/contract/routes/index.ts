/**
 * The requests the renderer may make: a name (`domain.verb`) → a zod schema for the input
 * (main parses every request with it) and the type of the output. Results travel as
 * `{ ok: true, data }` or `{ ok: false, error: { code, message, details } }` (`errors.ts`).
 * Each domain's routes are in a file of this folder.
 */
import type { z } from 'zod'
import type { ErrorInfo } from '../errors'
import { appInputs, type AppOutputs } from './app'
import { chatInputs, type ChatOutputs } from './chat'
import { desktopRouteInputs, type DesktopRouteOutputs } from '../desktop'
import { importsInputs, type ImportsOutputs } from './imports'
import { mcpInputs, type McpOutputs } from './mcp'
import { modelsInputs, type ModelsOutputs } from './models'
import { projectsInputs, type ProjectsOutputs } from './projects'
import { sessionsInputs, type SessionsOutputs } from './sessions'
import { settingsInputs, type SettingsOutputs } from './settings'

export type { AttachmentTaken } from './chat'
export type { ImportFile } from './imports'

export const routeInputs = {
  ...chatInputs,
  ...sessionsInputs,
  ...projectsInputs,
  ...importsInputs,
  ...settingsInputs,
  ...mcpInputs,
  ...modelsInputs,
  ...appInputs,
  ...desktopRouteInputs,
} satisfies Record<keyof RouteOutputs, z.ZodType>

/** What each route answers. */
export interface RouteOutputs
  extends
    ChatOutputs,
    SessionsOutputs,
    ProjectsOutputs,
    ImportsOutputs,
    SettingsOutputs,
    McpOutputs,
    ModelsOutputs,
    AppOutputs,
    DesktopRouteOutputs {}

export type RouteName = keyof RouteOutputs
export type RouteInput<R extends RouteName> = z.input<(typeof routeInputs)[R]>
export type RouteOutput<R extends RouteName> = RouteOutputs[R]

/** A route's answer; a failure's code is one of `errors.ts`'s closed list. */
export type Result<T> = { ok: true; data: T } | { ok: false; error: ErrorInfo }
