/** The part of officeparser (5.x, no types of its own) that `extract-text.ts` uses. */
declare module 'officeparser' {
  interface OfficeParserConfig {
    outputErrorToConsole?: boolean
    newlineDelimiter?: string
    ignoreNotes?: boolean
    putNotesAtLast?: boolean
  }
  const officeParser: {
    parseOfficeAsync(
      file: Buffer | ArrayBuffer | string,
      config?: OfficeParserConfig,
    ): Promise<string>
  }
  export default officeParser
}
