/**
 * The settings sections, in the order the settings screen lists them. Each section is its
 * own component (and file); the id is the address: `#/settings/<id>`.
 */
import type { JSX } from 'react'
import { AssistantsSection } from '../../features/assistants/AssistantsSection'
import { ModelsSection } from '../../features/models/ModelsSection'
import { GeneralSection } from '../../features/settings/GeneralSection'
import { McpSection } from '../../features/settings/McpSection'
import { PermissionsSection } from '../../features/settings/PermissionsSection'
import { ProvidersSection } from '../../features/settings/ProvidersSection'
import { ToolsSection } from '../../features/settings/ToolsSection'
import { UsageSection } from '../../features/usage/UsageSection'

export interface SettingsSection {
  id: string
  label: string
  Component: () => JSX.Element
}

export const sections: SettingsSection[] = [
  { id: 'providers', label: 'Providers', Component: ProvidersSection },
  { id: 'models', label: 'Models', Component: ModelsSection },
  { id: 'assistants', label: 'Assistants', Component: AssistantsSection },
  { id: 'permissions', label: 'Permissions', Component: PermissionsSection },
  { id: 'mcp', label: 'MCP servers', Component: McpSection },
  { id: 'tools', label: 'Tools and workspace', Component: ToolsSection },
  { id: 'usage', label: 'Usage', Component: UsageSection },
  { id: 'general', label: 'General', Component: GeneralSection },
]

export function findSection(id: string): SettingsSection {
  return sections.find((s) => s.id === id) ?? sections[0]!
}
