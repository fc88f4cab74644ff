import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { DeskContext } from '../../../../src/core/deskContext';
import { LazyFeatures } from '../../../../src/core/startup/lazyFeatures';
import type { TreeViewRegistration } from '../../../../src/config/treeViews';
import { FakeEventEmitter, fakeVscode } from '../../../support/fakeVscode';

/**
 * The tree views registered at activation (core/startup/lazyFeatures.ts): VS Code gets the view before its feature loads,
 * asks it for rows, and that ask loads the feature and is answered by the feature's own provider; the feature gets
 * the same view back, with its changes and drag and drop forwarded.
 */
describe('lazy features: tree views registered at activation', () => {
  interface Registered {
    readonly id: string;
    readonly options: vscode.TreeViewOptions<unknown>;
    readonly view: vscode.TreeView<unknown>;
  }

  const VIEW: TreeViewRegistration = {
    id: 'desk.example',
    options: { canSelectMany: true, showCollapseAll: true },
    dragAndDrop: { dragMimeTypes: ['application/vnd.code.tree.desk.example'], dropMimeTypes: ['application/vnd.code.tree.desk.example'] },
  };

  function setUp(featureOptions: TreeViewRegistration['options'] = VIEW.options): { features: LazyFeatures; registered: Registered[]; loads: () => number; errors: string[]; feature: { provider: vscode.TreeDataProvider<string>; changes: FakeEventEmitter<string | undefined>; drops: string[]; view?: vscode.TreeView<string> } } {
    const registered: Registered[] = [];
    const errors: string[] = [];
    const base = fakeVscode() as unknown as Record<string, unknown>;
    const vs = {
      ...base,
      Disposable: class { constructor(private readonly done: () => void) {} dispose(): void { this.done(); } },
      commands: { registerCommand: () => ({ dispose: () => undefined }) },
      workspace: { registerFileSystemProvider: () => ({ dispose: () => undefined }) },
      window: {
        ...(base.window as object),
        createTreeView: (id: string, options: vscode.TreeViewOptions<unknown>) => {
          const view = { visible: false, onDidChangeVisibility: () => ({ dispose: () => undefined }), dispose: () => undefined } as unknown as vscode.TreeView<unknown>;
          registered.push({ id, options, view });
          return view;
        },
      },
    } as unknown as typeof vscode;
    const desk = { vs, log: { info: () => undefined, error: (message: string) => errors.push(message) } } as unknown as DeskContext;
    const changes = new FakeEventEmitter<string | undefined>();
    const drops: string[] = [];
    const feature: { provider: vscode.TreeDataProvider<string>; changes: FakeEventEmitter<string | undefined>; drops: string[]; view?: vscode.TreeView<string> } = {
      provider: {
        onDidChangeTreeData: changes.event,
        getTreeItem: (element: string) => new vs.TreeItem(element),
        getChildren: async (element?: string) => (element ? [] : ['row']),
      },
      changes,
      drops,
    };
    let loadCount = 0;
    const features = new LazyFeatures(desk, [], [{
      name: 'example',
      commandPrefixes: [],
      fileSystems: [],
      treeViews: [VIEW],
      load: (featureDesk) => {
        loadCount++;
        feature.view = featureDesk.vs.window.createTreeView('desk.example', {
          treeDataProvider: feature.provider,
          dragAndDropController: { dragMimeTypes: [...(VIEW.dragAndDrop?.dragMimeTypes ?? [])], dropMimeTypes: [...(VIEW.dragAndDrop?.dropMimeTypes ?? [])], handleDrag: () => undefined, handleDrop: async (target: string | undefined) => { drops.push(target ?? 'root'); } },
          ...featureOptions,
        });
        return {};
      },
    }]);
    return { features, registered, loads: () => loadCount, errors, feature };
  }

  it('registers the view at activation with its options, loads the feature at VS Code\'s first ask and answers with its rows', async () => {
    const { registered, loads, errors, feature } = setUp();
    assert.equal(registered.length, 1, 'registered before the feature loads');
    const [{ id, options, view }] = registered as [Registered];
    assert.equal(id, 'desk.example');
    assert.equal(options.canSelectMany, true);
    assert.equal(options.showCollapseAll, true);
    assert.deepEqual(options.dragAndDropController?.dropMimeTypes, VIEW.dragAndDrop?.dropMimeTypes);
    assert.equal(typeof options.dragAndDropController?.handleDrag, 'function');
    assert.equal(typeof options.treeDataProvider.resolveTreeItem, 'function', 'VS Code reads once whether hovers resolve');
    assert.equal(loads(), 0);

    assert.deepEqual(await options.treeDataProvider.getChildren(undefined), ['row']);
    assert.equal(loads(), 1);
    assert.equal(registered.length, 1, 'the feature got the registered view back, no second registration');
    assert.equal(feature.view, view);
    assert.deepEqual(errors, []);

    const changed: unknown[] = [];
    options.treeDataProvider.onDidChangeTreeData?.((element) => changed.push(element));
    feature.changes.fire('row');
    assert.deepEqual(changed, ['row'], 'the feature\'s redraws reach VS Code');
    await options.dragAndDropController?.handleDrop?.('row', {} as unknown as vscode.DataTransfer, {} as vscode.CancellationToken);
    assert.deepEqual(feature.drops, ['row']);
  });

  it('a drop before the feature loaded loads it first', async () => {
    const { registered, loads, feature } = setUp();
    await registered[0]?.options.dragAndDropController?.handleDrop?.(undefined, {} as unknown as vscode.DataTransfer, {} as vscode.CancellationToken);
    assert.equal(loads(), 1);
    assert.deepEqual(feature.drops, ['root']);
  });

  it('loads the feature once, whether VS Code asks first or the loading after activation comes first', async () => {
    const { features, registered, loads } = setUp();
    features.ensure('example');
    await registered[0]?.options.treeDataProvider.getChildren(undefined);
    assert.equal(loads(), 1);
  });

  it('reports a feature that creates its view with other options than it was registered with', async () => {
    const { registered, errors } = setUp({ canSelectMany: false, showCollapseAll: true });
    await registered[0]?.options.treeDataProvider.getChildren(undefined);
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0] ?? '', /desk\.example/);
  });
});

describe('lazy features: loading after activation', () => {
  it('loads the features the start needs one per macrotask, and the deferred ones only after the wait (or at their first use)', async () => {
    const loaded: string[] = [];
    const vs = { ...(fakeVscode() as unknown as Record<string, unknown>), commands: { registerCommand: () => ({ dispose: () => undefined }) }, workspace: {} } as unknown as typeof vscode;
    const desk = { vs, log: { info: () => undefined, error: () => undefined } } as unknown as DeskContext;
    const spec = (name: string, deferred: boolean) => ({ name, commandPrefixes: [], fileSystems: [], deferred, load: () => { loaded.push(name); return {}; } });
    const features = new LazyFeatures(desk, [], [spec('tasks', false), spec('search', true), spec('drive', false), spec('channels', true)]);
    features.loadAllSoon(60);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(loaded, ['tasks', 'drive'], 'the deferred features wait');
    features.ensure('channels');
    assert.deepEqual(loaded, ['tasks', 'drive', 'channels'], 'a command of a deferred feature loads it at once');
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.deepEqual(loaded, ['tasks', 'drive', 'channels', 'search']);
    features.dispose();
  });

  it('loads no deferred feature after the activation was disposed', async () => {
    const loaded: string[] = [];
    const vs = { ...(fakeVscode() as unknown as Record<string, unknown>), commands: { registerCommand: () => ({ dispose: () => undefined }) }, workspace: {} } as unknown as typeof vscode;
    const desk = { vs, log: { info: () => undefined, error: () => undefined } } as unknown as DeskContext;
    const features = new LazyFeatures(desk, [], [{ name: 'search', commandPrefixes: [], fileSystems: [], deferred: true, load: () => { loaded.push('search'); return {}; } }]);
    features.loadAllSoon(10);
    features.dispose();
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.deepEqual(loaded, []);
  });

  it('leaves what the desk builds on first use (the clock, the view cache) to the first feature that asks for it', () => {
    const vs = { ...(fakeVscode() as unknown as Record<string, unknown>), commands: { registerCommand: () => ({ dispose: () => undefined }) }, workspace: {} } as unknown as typeof vscode;
    const built: string[] = [];
    const desk = {
      vs,
      log: { info: () => undefined, error: () => undefined },
      get clock() { built.push('clock'); return 'the clock'; },
      get viewCache() { built.push('viewCache'); return 'the view cache'; },
    } as unknown as DeskContext;
    let seen: { clock: unknown; vs: unknown } | undefined;
    const features = new LazyFeatures(desk, [], [{ name: 'calendar', commandPrefixes: [], fileSystems: [], load: (featureDesk: DeskContext) => { seen = { clock: featureDesk.clock, vs: featureDesk.vs }; return {}; } }]);
    assert.deepEqual(built, [], 'activation builds none of them');
    features.ensure('calendar');
    assert.deepEqual(built, ['clock'], 'the feature gets what it asks for, and only that');
    assert.equal(seen?.clock, 'the clock');
    assert.notEqual(seen.vs, vs, 'the feature sees the vscode whose registrations fill the activation stubs');
    features.dispose();
  });
});
