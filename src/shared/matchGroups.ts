/**
 * A regular expression match's groups as they are at run time: a group that took no part in the match is
 * undefined (TypeScript types them all as strings). Read optional groups through this.
 */
export function groupsOf(match: RegExpMatchArray): readonly (string | undefined)[] {
  return match;
}
