/**
 * The settings sections, in the order the settings screen lists them. Each section is its
 * own component (and file); the id is the address: `#/settings/<id>`.
 */
import type { JSX } from 'react'
import type { TFunction } from '../../i18n'
import { AssistantsSection } from '../../features/assistants/AssistantsSection'
import { ModelsSection } from '../../features/models/ModelsSection'
import { GeneralSection } from '../../features/settings/GeneralSection'
import { McpSection } from '../../features/settings/McpSection'
import { PermissionsSection } from '../../features/settings/PermissionsSection'
import { ProvidersSection } from '../../features/settings/ProvidersSection'
import { ToolsSection } from '../../features/settings/ToolsSection'
import { SkillsSection } from '../../features/skills/SkillsSection'
import { UsageSection } from '../../features/usage/UsageSection'

export interface SettingsSection {
  id: string
  /** the section's name in the window's language */
  label: (t: TFunction) => string
  Component: () => JSX.Element
}

export const sections: SettingsSection[] = [
  { id: 'providers', label: (t) => t('settings.sections.providers'), Component: ProvidersSection },
  { id: 'models', label: (t) => t('settings.sections.models'), Component: ModelsSection },
  {
    id: 'assistants',
    label: (t) => t('settings.sections.assistants'),
    Component: AssistantsSection,
  },
  {
    id: 'permissions',
    label: (t) => t('settings.sections.permissions'),
    Component: PermissionsSection,
  },
  { id: 'mcp', label: (t) => t('settings.sections.mcp'), Component: McpSection },
  { id: 'skills', label: (t) => t('settings.sections.skills'), Component: SkillsSection },
  { id: 'tools', label: (t) => t('settings.sections.tools'), Component: ToolsSection },
  { id: 'usage', label: (t) => t('settings.sections.usage'), Component: UsageSection },
  { id: 'general', label: (t) => t('settings.sections.general'), Component: GeneralSection },
]

export function findSection(id: string): SettingsSection {
  return sections.find((s) => s.id === id) ?? sections[0]!
}
