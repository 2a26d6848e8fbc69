// @vitest-environment jsdom
/**
 * A turn that ended on an error offers the provider settings when its code is one a
 * provider setting fixes (a rejected key, an unknown model, a wrong address, none
 * configured), whatever the message says; other codes do not, even when their words name
 * the provider.
 */
import { cleanup, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { ErrorInfo } from '../../src-preload/contract/errors'
import { EndRow } from '../../src-renderer/src/features/chat/rows/NoticeRows'
import { renderWithApp } from './support/render-app'

afterEach(cleanup)

function endRow(error: ErrorInfo) {
  return renderWithApp(
    <EndRow
      row={{
        kind: 'end',
        key: 'end:t1',
        end: { turnId: 't1', reason: 'error', error, message: error.message },
        retry: null,
      }}
    />,
  )
}

const link = () => screen.queryByRole('button', { name: 'Open provider settings' })

describe('the end of a failed turn', () => {
  it.each<ErrorInfo>([
    { code: 'auth', message: 'Rejected.', details: { retryable: false } },
    { code: 'access_denied', message: 'No.', details: { retryable: false } },
    { code: 'model_not_found', message: 'Gone.', details: { retryable: false } },
    { code: 'endpoint_not_found', message: '404.', details: { retryable: false } },
    { code: 'network', message: 'Nothing answers.', details: { retryable: true } },
    { code: 'no_provider', message: 'None.' },
    { code: 'no_model', message: 'None.' },
  ])('$code offers the provider settings', async (error) => {
    const app = endRow(error)
    await userEvent.click(link()!)
    expect(app.env.nav.getState()).toMatchObject({ view: 'settings', section: 'providers' })
  })

  it.each<ErrorInfo>([
    {
      code: 'server',
      message: 'The provider at the base URL answered 500; check the API key.',
      details: { retryable: true },
    },
    { code: 'storage', message: 'Could not save: the provider settings are fine.' },
    { code: 'internal', message: 'Cairn failed: provider.', details: { id: '0a1b2c3d' } },
  ])('$code does not, whatever its words', (error) => {
    endRow(error)
    expect(screen.getByRole('alert').textContent).toContain(error.message)
    expect(link()).toBeNull()
  })
})
