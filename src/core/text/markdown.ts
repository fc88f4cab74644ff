/** Markdown for tooltips and details documents: text from a service shown as text, never as markup. */

/** Escapes every character markdown could read as syntax. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, (character) => `\\${character}`);
}
