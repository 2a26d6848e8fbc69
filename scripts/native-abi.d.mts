/** Types of scripts/native-abi.mjs, for the tests. */
export const ELECTRON_ABI: Record<number, number>
export function moduleAbis(file: string): number[]
export function electronAbi(version: string): number
export function abiMismatch(file: string, wantedAbi: number, what: string): string | null
/** x64, arm64, ia32, armv7l, universal (macOS fat binary), or null */
export function binaryArch(file: string): string | null
