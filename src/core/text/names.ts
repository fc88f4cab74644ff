/** Names as messages quote them: a 2000-character title would fill the notification and hide what it says. */

/** How many characters of a name a message quotes. */
export const MESSAGE_NAME_LENGTH = 60;

/** `name` whole when short, else its first characters and "…" (never splitting a character such as an emoji). */
export function nameInMessage(name: string, max: number = MESSAGE_NAME_LENGTH): string {
  const characters = Array.from(name);
  return characters.length <= max ? name : `${characters.slice(0, max - 1).join('').trimEnd()}…`;
}
