/**
 * `instanceof` that holds across bundles. Each lazily loaded feature bundle carries its own copy of the shared
 * classes, so an error made by one bundle's class and tested with another bundle's copy would fail a plain
 * `instanceof`. Such a class marks its instances with its name under a global symbol and answers `instanceof`
 * from that mark (a subclass instance carries its parents' marks too).
 */
const MARKS = Symbol.for('desk.classMarks');

type Marked = { [MARKS]?: Set<string> };

export function markInstance(instance: object, className: string): void {
  const record = instance as Marked;
  if (!record[MARKS]) Object.defineProperty(record, MARKS, { value: new Set<string>(), enumerable: false });
  record[MARKS]?.add(className);
}

export function hasMark(value: unknown, className: string): boolean {
  return typeof value === 'object' && value !== null && ((value as Marked)[MARKS]?.has(className) ?? false);
}
