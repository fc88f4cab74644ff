/** A vscode.Memento in a Map, for the unit tests of what the extension remembers (globalState, workspaceState). */
export class MapMemento {
  readonly values = new Map<string, unknown>();

  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }

  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}
