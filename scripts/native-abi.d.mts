/** Types of scripts/native-abi.mjs, for the tests. */
export const ELECTRON_ABI: Record<number, number>
export function moduleAbis(file: string): number[]
export function electronAbi(version: string): number
export function abiMismatch(file: string, wantedAbi: number, what: string): string | null
