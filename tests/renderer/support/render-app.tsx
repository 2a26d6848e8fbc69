/** Renders window parts against the test platform, with the app's real stores. */
import { render } from '@testing-library/react'
import type { Platform } from '../../../src-renderer/src/platform/types'
import type { ReactNode } from 'react'
import { createAppEnv } from '../../../src-renderer/src/state/app-env'
import { AppProviders, type AppEnv } from '../../../src-renderer/src/state/context'
import { createTestPlatform, manualFrames, type Handlers, type TestPlatform } from './test-platform'

/** `host`: what a particular host adds (the desktop app's folder picker, say). */
export function renderWithApp(
  ui: ReactNode,
  handlers: Handlers = {},
  host: Partial<Pick<Platform, 'pickFolder' | 'saveFile' | 'kind'>> = {},
) {
  const platform: TestPlatform = Object.assign(createTestPlatform(handlers), host)
  const frames = manualFrames()
  const env: AppEnv = createAppEnv(platform, { scheduler: frames })
  const view = render(<AppProviders env={env}>{ui}</AppProviders>)
  return { ...view, platform, frames, env }
}
