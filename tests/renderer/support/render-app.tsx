/** Renders window parts against the test platform, with the app's real stores. */
import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { AppProviders, createAppEnv, type AppEnv } from '../../../src-renderer/src/state/context'
import { createTestPlatform, manualFrames, type Handlers, type TestPlatform } from './test-platform'

export function renderWithApp(ui: ReactNode, handlers: Handlers = {}) {
  const platform: TestPlatform = createTestPlatform(handlers)
  const frames = manualFrames()
  const env: AppEnv = createAppEnv(platform, { scheduler: frames })
  const view = render(<AppProviders env={env}>{ui}</AppProviders>)
  return { ...view, platform, frames, env }
}
