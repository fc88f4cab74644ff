/** Drive's search language (files.list and drives.list `q`) as clients write it: string literals quoted the one way Drive reads them. */

/** A string literal: single quotes, with quotes and backslashes backslash-escaped. */
export function quoteQuery(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
