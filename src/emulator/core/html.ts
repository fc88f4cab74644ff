/** HTML escaping for the emulator's few pages (consent screen, "open in browser" pages, document exports). */

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Escapes text for element content and attribute values alike (backticks too, which old browsers treat as quotes). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (character) => ENTITIES[character]);
}
