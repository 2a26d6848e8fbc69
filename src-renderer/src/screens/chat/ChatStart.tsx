import { useState, type JSX } from 'react'
import { EmptyState } from '../../features/chat/EmptyState'
import { Onboarding, OnboardingDone } from '../../features/onboarding/Onboarding'
import type { NewProvider } from '../../features/onboarding/provider-patch'
import { useProviderStatus } from '../../state/provider-queries'

/**
 * What a new chat shows: what Cairn can do, and how to drive it; on a first run (no provider
 * configured), the onboarding panel instead.
 */
export function ChatStart(): JSX.Element {
  const status = useProviderStatus()
  const [saved, setSaved] = useState<NewProvider | null>(null)
  if (saved) return <OnboardingDone provider={saved} />
  if (status.data && !status.data.configured) return <Onboarding onSaved={setSaved} />
  return <EmptyState />
}
