import * as assert from 'node:assert/strict';
import { applyShelfMoves, planShelfMoves, ShelfDropTarget } from '../../../../../src/features/books/tree/dropPlan';

const order = ['a', 'b', 'c', 'd', 'e'];
const onto = (volumeId: string): ShelfDropTarget => ({ kind: 'volume', volumeId });

function result(dragged: string[], target: ShelfDropTarget, from = order): string[] {
  return applyShelfMoves(from, planShelfMoves(from, dragged, target));
}

describe('Books drop plan (moves within a shelf)', () => {
  it('a volume dropped on a later one goes after it, on an earlier one before it', () => {
    assert.deepEqual(planShelfMoves(order, ['b'], onto('d')), [{ volumeId: 'b', position: 3 }]);
    assert.deepEqual(result(['b'], onto('d')), ['a', 'c', 'd', 'b', 'e']);
    assert.deepEqual(planShelfMoves(order, ['d'], onto('b')), [{ volumeId: 'd', position: 1 }]);
    assert.deepEqual(result(['d'], onto('b')), ['a', 'd', 'b', 'c', 'e']);
  });

  it('dropped on the shelf row goes to the top (volumePosition 0)', () => {
    assert.deepEqual(planShelfMoves(order, ['c'], { kind: 'shelf' }), [{ volumeId: 'c', position: 0 }]);
  });

  it('moves several as a block in shelf order, each position valid at the time of its call', () => {
    assert.deepEqual(result(['d', 'a'], onto('c')), ['b', 'c', 'a', 'd', 'e']);
    assert.deepEqual(result(['e', 'b'], { kind: 'shelf' }), ['b', 'e', 'a', 'c', 'd']);
    assert.deepEqual(result(['a', 'b'], onto('e')), ['c', 'd', 'e', 'a', 'b']);
    assert.deepEqual(result(['c', 'e'], onto('a')), ['c', 'e', 'a', 'b', 'd']);
  });

  it('does nothing for a drop on itself, a no-op, or volumes not on the shelf', () => {
    assert.deepEqual(planShelfMoves(order, ['b'], onto('b')), []);
    assert.deepEqual(planShelfMoves(order, ['a'], { kind: 'shelf' }), []);
    assert.deepEqual(planShelfMoves(order, ['x'], onto('b')), []);
    assert.deepEqual(planShelfMoves(order, ['a', 'b'], onto('b')), []);
  });

  it('uses the loaded prefix\'s indexes: after the last loaded volume is still a valid absolute position', () => {
    // Only a..c loaded of a longer shelf: dropping a after c puts it at index 2, before the unloaded rest.
    assert.deepEqual(planShelfMoves(['a', 'b', 'c'], ['a'], onto('c')), [{ volumeId: 'a', position: 2 }]);
    assert.deepEqual(applyShelfMoves(['a', 'b', 'c', 'x', 'y'], [{ volumeId: 'a', position: 2 }]), ['b', 'c', 'a', 'x', 'y']);
  });

  it('computes the same calls as simulating each one on the order, for any drag on any shelf, and plans 20,000 volumes in one pass', () => {
    // The plan as it was written first: each call simulated on the order the previous ones leave.
    const simulated = (shelf: readonly string[], moving: readonly string[], next: string | undefined): { volumeId: string; position: number }[] => {
      const current = [...shelf];
      const moves: { volumeId: string; position: number }[] = [];
      for (const volumeId of [...moving].reverse()) {
        current.splice(current.indexOf(volumeId), 1);
        const position = next === undefined ? current.length : current.indexOf(next);
        current.splice(position, 0, volumeId);
        moves.push({ volumeId, position });
        next = volumeId;
      }
      return moves;
    };
    let seed = 3;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let sample = 0; sample < 5000; sample++) {
      const shelf = Array.from({ length: 1 + (next() % 9) }, (_, index) => `v${index}`);
      const dragged = Array.from({ length: next() % 5 }, () => `v${next() % (shelf.length + 1)}`);
      const target: ShelfDropTarget = next() % 4 === 0 ? { kind: 'shelf' } : onto(`v${next() % shelf.length}`);
      const moves = planShelfMoves(shelf, dragged, target);
      if (moves.length === 0) continue;
      const moving = [...moves].reverse().map((move) => move.volumeId);
      const wanted = applyShelfMoves(shelf, moves);
      const after = wanted[wanted.indexOf(moving[moving.length - 1]) + 1];
      assert.deepEqual(moves, simulated(shelf, moving, after), JSON.stringify({ shelf, dragged, target }));
    }
    const shelf = Array.from({ length: 20_000 }, (_, index) => `v${index}`);
    const moves = planShelfMoves(shelf, shelf.filter((_, index) => index % 2 === 1).reverse(), { kind: 'shelf' });
    // Each odd volume goes to the top, the last first, so they end up in their order before the even ones.
    assert.deepEqual(moves, shelf.filter((_, index) => index % 2 === 1).reverse().map((volumeId) => ({ volumeId, position: 0 })));
  });
});
