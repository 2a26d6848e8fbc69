// @vitest-environment jsdom
/**
 * Settings › General › Language: the window follows the system's language until the user
 * picks one, switches at once, remembers the choice, and goes back to the system's.
 */
import { act, cleanup, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { GeneralSection } from '../../src-renderer/src/features/settings/GeneralSection'
import { setLanguageChoice, startLanguage } from '../../src-renderer/src/i18n'
import { renderWithApp } from './support/render-app'
import { settingsHost } from './support/settings-host'

afterEach(async () => {
  cleanup()
  await act(() => setLanguageChoice('system'))
})

describe('Settings › General › Language', { timeout: 120_000 }, () => {
  it('switches the window to the chosen language at once and remembers it', async () => {
    await startLanguage()
    renderWithApp(<GeneralSection />, settingsHost().handlers)
    const user = userEvent.setup()
    const select = screen.getByRole('combobox', { name: 'Language' })
    expect(select).toHaveProperty('value', 'system')
    expect(screen.getByRole('option', { name: 'Same as the system (English)' })).toBeTruthy()

    await user.selectOptions(select, 'de')
    expect(await screen.findByRole('combobox', { name: 'Sprache' })).toBeTruthy()
    expect(screen.getByRole('group', { name: 'Darstellung' })).toBeTruthy()
    expect(screen.getByRole('radio', { name: 'Dunkel' })).toBeTruthy()
    expect(localStorage.getItem('cairn.language')).toBe('de')
    expect(document.documentElement.lang).toBe('de')

    await user.selectOptions(screen.getByRole('combobox', { name: 'Sprache' }), 'ja')
    expect(await screen.findByRole('combobox', { name: '言語' })).toBeTruthy()
    expect(await screen.findByRole('form', { name: '上限' })).toBeTruthy()

    await user.selectOptions(screen.getByRole('combobox', { name: '言語' }), 'system')
    expect(await screen.findByRole('combobox', { name: 'Language' })).toBeTruthy()
    expect(localStorage.getItem('cairn.language')).toBeNull()
  })

  it('starts in the language chosen earlier', async () => {
    localStorage.setItem('cairn.language', 'fr')
    await startLanguage()
    renderWithApp(<GeneralSection />, settingsHost().handlers)
    expect(screen.getByRole('combobox', { name: 'Langue' })).toHaveProperty('value', 'fr')
    expect(screen.getByRole('radio', { name: 'Sombre' })).toBeTruthy()
  })
})
