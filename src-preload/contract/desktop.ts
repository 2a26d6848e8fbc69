/**
 * The desktop shell around the window (the desktop app only): the tray, the global shortcut
 * that opens Quick ask, and whether closing the window keeps Cairn in the tray. Shortcuts
 * are Electron accelerators (`Alt+Space`, `CmdOrCtrl+Shift+K`); on macOS `Alt` is Option.
 */
import { z } from 'zod'

/** Alt+Space on Windows and Linux, Option+Space on macOS */
export const DEFAULT_QUICK_ASK_SHORTCUT = 'Alt+Space'

const MODIFIERS = new Set([
  'CommandOrControl',
  'CmdOrCtrl',
  'Command',
  'Cmd',
  'Control',
  'Ctrl',
  'Alt',
  'Option',
  'AltGr',
  'Shift',
  'Super',
  'Meta',
])
const NAMED_KEYS = new Set([
  'Space',
  'Tab',
  'Backspace',
  'Delete',
  'Insert',
  'Return',
  'Enter',
  'Up',
  'Down',
  'Left',
  'Right',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'Escape',
  'Esc',
  'Plus',
])
const SINGLE_KEY = /^[A-Z0-9,./;'[\]\\\-=`]$/
const FUNCTION_KEY = /^F([1-9]|1[0-9]|2[0-4])$/

/**
 * What is wrong with an accelerator as a global shortcut, in words; null when it is one:
 * one to three different modifiers, then one key.
 */
export function shortcutProblem(accelerator: string): string | null {
  const parts = accelerator.split('+')
  // "Ctrl++" is written "Ctrl+Plus" in an accelerator
  if (parts.some((p) => p === '')) return 'write + as "Plus"'
  const key = parts.pop() ?? ''
  if (parts.length === 0)
    return 'it needs a modifier (Ctrl, Alt, Shift, Cmd or Super) before the key'
  if (parts.length > 3) return 'it has more than three modifiers'
  const unknown = parts.find((p) => !MODIFIERS.has(p))
  if (unknown !== undefined) return `"${unknown}" is not a modifier (Ctrl, Alt, Shift, Cmd, Super)`
  if (new Set(parts).size !== parts.length) return 'a modifier is there twice'
  if (!NAMED_KEYS.has(key) && !SINGLE_KEY.test(key) && !FUNCTION_KEY.test(key))
    return `"${key}" is not a key Cairn can listen for`
  return null
}

export const shortcutSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .superRefine((value, ctx) => {
    const problem = shortcutProblem(value)
    if (problem) ctx.addIssue({ code: 'custom', message: `Not a shortcut: ${problem}.` })
  })

/** `desktop` in settings.json */
export const desktopSettingsSchema = z.object({
  /** opens Quick ask from anywhere; null: off */
  quickAskShortcut: shortcutSchema.nullable(),
  /** closing the window keeps Cairn in the tray; null: not asked yet (asked at the first close) */
  closeToTray: z.boolean().nullable(),
})
export type DesktopSettings = z.infer<typeof desktopSettingsSchema>

export const DEFAULT_DESKTOP_SETTINGS: DesktopSettings = {
  quickAskShortcut: DEFAULT_QUICK_ASK_SHORTCUT,
  closeToTray: null,
}

/** What the shell holds now (`desktop.status`). */
export interface DesktopStatus {
  quickAsk: {
    /** the shortcut set in the settings (null: off) */
    shortcut: string | null
    /** false: another app holds it, so Cairn could not take it */
    registered: boolean
    /** Alt+Space (Option+Space on macOS) */
    defaultShortcut: string
  }
  closeToTray: boolean | null
}

export const desktopRouteInputs = {
  /** the desktop shell's state (other hosts: `unavailable`) */
  'desktop.status': z.strictObject({}),
  /**
   * Sets (or, null, switches off) the Quick ask shortcut: taken first, saved only then;
   * `shortcut_taken` when another app holds it (the one before stays)
   */
  'desktop.setQuickAskShortcut': z.strictObject({ shortcut: shortcutSchema.nullable() }),
  /** whether closing the window keeps Cairn in the tray (false: closing it quits) */
  'desktop.setCloseToTray': z.strictObject({ closeToTray: z.boolean() }),
  /** Quick ask's chat continued in the main window (shown, at that chat); Quick ask hides */
  'desktop.openInMain': z.strictObject({ sessionId: z.string().min(1).max(200) }),
  /** hides the Quick ask window (Esc) */
  'desktop.hideQuickAsk': z.strictObject({}),
}

export interface DesktopRouteOutputs {
  'desktop.status': DesktopStatus
  'desktop.setQuickAskShortcut': DesktopStatus
  'desktop.setCloseToTray': DesktopStatus
  'desktop.openInMain': { opened: boolean }
  'desktop.hideQuickAsk': { hidden: boolean }
}
