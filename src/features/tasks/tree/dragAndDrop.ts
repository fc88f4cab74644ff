import type * as vscode from 'vscode';
import { TASKS_TREE_VIEW } from '../../../config/treeViews';
import * as z from '../../../shared/schemas/zod';
import { affectedLists, DropTarget, MoveRequest, planDrop, TaskRef } from './dropPlan';
import { TASKS_MIME, TasksNode } from './nodes';

/** What a drag carries: plain task references (validated on drop, since a data transfer holds anything). */
const draggedSchema = z.array(z.object({ listId: z.string(), taskId: z.string(), ancestors: z.array(z.string()) }));

export interface TasksDropHandler {
  /** Runs the moves in order and refreshes the lists they touched; reports errors itself. */
  move(requests: readonly MoveRequest[], lists: readonly string[]): Promise<void>;
}

/** Drag tasks onto a task (subtask or reorder) or onto a list (top level, across lists): see dropPlan.ts. */
export class TasksDragAndDropController implements vscode.TreeDragAndDropController<TasksNode> {
  readonly dragMimeTypes = TASKS_TREE_VIEW.dragAndDrop.dragMimeTypes;
  readonly dropMimeTypes = TASKS_TREE_VIEW.dragAndDrop.dropMimeTypes;

  constructor(private readonly vs: typeof vscode, private readonly handler: TasksDropHandler) {}

  handleDrag(source: readonly TasksNode[], dataTransfer: vscode.DataTransfer): void {
    const refs: TaskRef[] = source.flatMap((node) => (node.kind === 'task' ? [node.ref] : []));
    if (refs.length > 0) dataTransfer.set(TASKS_MIME, new this.vs.DataTransferItem(refs));
  }

  async handleDrop(target: TasksNode | undefined, dataTransfer: vscode.DataTransfer): Promise<void> {
    const parsed = draggedSchema.safeParse(dataTransfer.get(TASKS_MIME)?.value);
    if (!parsed.success || !target) return;
    const dropTarget = toDropTarget(target);
    if (!dropTarget) return;
    const requests = planDrop(parsed.data, dropTarget);
    if (requests.length === 0) return;
    await this.handler.move(requests, affectedLists(requests));
  }
}

function toDropTarget(node: TasksNode): DropTarget | undefined {
  if (node.kind === 'list') return { kind: 'list', listId: node.listId };
  if (node.kind === 'task') return { kind: 'task', ref: node.ref };
  // "No tasks" and similar rows stand for their list.
  return node.parent ? { kind: 'list', listId: node.parent.listId } : undefined;
}
