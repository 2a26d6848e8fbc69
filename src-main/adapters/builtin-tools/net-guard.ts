/**
 * Where fetch_url may connect. A model can be steered by a page into asking for an address
 * on the user's machine or network (a router's admin page, a database's HTTP port, a cloud
 * metadata service that hands out credentials), so every hop is resolved first and refused
 * when any of its addresses is loopback, private, link-local, CGNAT, multicast, reserved or
 * a metadata service, for IPv4 and IPv6 alike (IPv4-mapped IPv6 addresses are judged as the
 * IPv4 address they carry). The user can allow hosts in the settings
 * (`builtinTools.fetchAllowedHosts`: `host`, `host:port`, or `*` for all).
 *
 * The connection is then pinned to the address that was checked (a `lookup` that answers
 * with it), so a name that resolves differently a moment later (DNS rebinding) cannot
 * redirect it.
 */
import { promises as dns } from 'node:dns'
import { BlockList, isIP, type LookupFunction } from 'node:net'
import { ToolError, type ResolvedAddress, type Resolver } from './tool-def'

export const systemResolver: Resolver = async (hostname) => {
  const all = await dns.lookup(hostname, { all: true, verbatim: true })
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))
}

const RANGES: readonly (readonly [string, number, 'ipv4' | 'ipv6', string])[] = [
  ['169.254.169.254', 32, 'ipv4', 'a cloud metadata service'],
  ['100.100.100.200', 32, 'ipv4', 'a cloud metadata service'],
  ['fd00:ec2::254', 128, 'ipv6', 'a cloud metadata service'],
  ['0.0.0.0', 8, 'ipv4', 'an unspecified address ("this network")'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback address (this machine)'],
  ['10.0.0.0', 8, 'ipv4', 'a private network address'],
  ['172.16.0.0', 12, 'ipv4', 'a private network address'],
  ['192.168.0.0', 16, 'ipv4', 'a private network address'],
  ['100.64.0.0', 10, 'ipv4', 'a carrier-grade NAT (shared) address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address'],
  ['192.0.0.0', 24, 'ipv4', 'a reserved address'],
  ['198.18.0.0', 15, 'ipv4', 'a reserved (benchmarking) address'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved address'],
  ['::', 128, 'ipv6', 'an unspecified address'],
  ['::1', 128, 'ipv6', 'a loopback address (this machine)'],
  ['::', 96, 'ipv6', 'an IPv4-compatible address'],
  ['64:ff9b::', 96, 'ipv6', 'a NAT64 address'],
  ['fc00::', 7, 'ipv6', 'a private network (unique local) address'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
  ['fec0::', 10, 'ipv6', 'a site-local address'],
  ['ff00::', 8, 'ipv6', 'a multicast address'],
]

const LISTS = RANGES.map(([net, prefix, type, why]) => {
  const list = new BlockList()
  list.addSubnet(net, prefix, type)
  return { list, why }
})

/** Why an address must not be fetched from, or null when it is a public address. */
export function blockedReason(address: string): string | null {
  const family = isIP(address)
  if (family === 0) return 'not an IP address'
  const type = family === 6 ? 'ipv6' : 'ipv4'
  // BlockList judges an IPv4-mapped IPv6 address (::ffff:a.b.c.d) by its IPv4 rules
  for (const { list, why } of LISTS) if (list.check(address, type)) return why
  return null
}

/** `[::1]` → `::1` (URL keeps the brackets of an IPv6 host). */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80')
}

/** Whether the settings allow this URL's host (`host`, `host:port` or `*`). */
export function hostAllowed(url: URL, allowed: readonly string[]): boolean {
  const host = bareHost(url.hostname).toLowerCase()
  const port = defaultPort(url)
  return allowed.some((entry) => {
    const e = entry.trim().toLowerCase()
    if (e === '*') return true
    const withPort = /^\[?(.+?)\]?:(\d+)$/.exec(e)
    if (withPort && !isIP(e)) return bareHost(withPort[1] ?? '') === host && withPort[2] === port
    return bareHost(e) === host
  })
}

/**
 * Resolves the URL's host and checks every address it has. Returns the addresses to
 * connect to (all of them checked). Throws a ToolError written for the model when the host
 * is refused.
 */
export async function checkDestination(
  url: URL,
  allowed: readonly string[],
  resolve: Resolver,
): Promise<ResolvedAddress[]> {
  const host = bareHost(url.hostname)
  let addresses: ResolvedAddress[]
  const literal = isIP(host)
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }]
  } else {
    try {
      addresses = await resolve(host)
    } catch (e) {
      throw new ToolError(
        `The host ${host} could not be resolved (${e instanceof Error ? e.message : String(e)}).`,
      )
    }
  }
  const first = addresses[0]
  if (!first) throw new ToolError(`The host ${host} has no address.`)
  if (hostAllowed(url, allowed)) return addresses
  for (const a of addresses) {
    const why = blockedReason(a.address)
    if (why !== null) {
      throw new ToolError(
        `fetch_url refused ${url.origin}: ${host === a.address ? 'it' : `${host} resolves to ${a.address}, which`} is ${why}. ` +
          'fetch_url does not reach this machine, the local network or cloud metadata services ' +
          'unless the user allows the host in the settings (builtinTools.fetchAllowedHosts).',
      )
    }
  }
  return addresses
}

/** A `lookup` for net/tls connect that answers with the checked addresses only. */
export function pinnedLookup(targets: ResolvedAddress[]): LookupFunction {
  const first = targets[0]
  if (!first) throw new Error('pinnedLookup needs an address')
  return ((_hostname: string, options: { all?: boolean }, callback: unknown) => {
    const cb = (typeof options === 'function' ? options : callback) as (
      err: Error | null,
      address: string | ResolvedAddress[],
      family?: number,
    ) => void
    const all = typeof options === 'object' && options !== null && options.all === true
    if (all) cb(null, targets)
    else cb(null, first.address, first.family)
  }) as LookupFunction
}
