"""The numba kernel of the exact-cover engine: Knuth's Algorithm X on dancing links.

The links live in numpy arrays laid out as in TAOCP 7.2.2.1 (Algorithm X):
node 0 is the root, nodes ``1..N`` are the item headers (primary items first),
then each option's nodes follow one another, separated by spacer nodes.

* ``top[p]``: the item of node ``p`` (a header's top is itself; a spacer's is <= 0);
* ``up[p]`` / ``down[p]``: the vertical circular list of an item's nodes (for a
  spacer: the first node of the option before it / the last node of the option
  after it);
* ``left[i]`` / ``right[i]``: the horizontal list of active primary items, through
  the root (secondary headers point to themselves, so they are never chosen);
* ``length[i]``: how many active options contain item ``i``.

The search is iterative, with an explicit stack (``choice[level]`` is the node of
the option tried at each level), so `run` can stop after a node budget or at a
solution and be called again to resume where it stopped. The state between calls
is the arrays plus ``state`` (see the ``S_*`` indices).
"""

from __future__ import annotations

from numba import njit

from gridgames.native import jit_cache

jit_cache(__file__)  # numba caches these kernels in the user's cache folder, never beside them

# indices into the int64 state array
S_STEP = 0  # where to resume: one of the STEP_* values
S_LEVEL = 1  # current depth (number of options chosen)
S_COUNT = 2  # solutions found so far
S_NODES = 3  # search-tree nodes visited so far
STATE_SIZE = 4

STEP_ENTER = 2  # X2: enter a level (a solution if no primary item is left)
STEP_TRY = 5  # X5: try the option choice[level] (or backtrack when it is the header)
STEP_NEXT = 6  # X6: undo choice[level] and move to the next option of the item
STEP_LEAVE = 8  # X8: leave the level
STEP_DONE = 9  # the whole tree has been searched

# what `run` returns
BUDGET_SPENT = 0
FOUND = 1
FINISHED = 2


@njit(cache=True, inline="always")
def _hide(p, top, up, down, length):
    q = p + 1
    while q != p:
        x = top[q]
        u = up[q]
        d = down[q]
        if x <= 0:
            q = u
        else:
            down[u] = d
            up[d] = u
            length[x] -= 1
            q += 1


@njit(cache=True, inline="always")
def _unhide(p, top, up, down, length):
    q = p - 1
    while q != p:
        x = top[q]
        u = up[q]
        d = down[q]
        if x <= 0:
            q = d
        else:
            down[u] = q
            up[d] = q
            length[x] += 1
            q -= 1


@njit(cache=True, inline="always")
def _cover(i, top, up, down, left, right, length):
    p = down[i]
    while p != i:
        _hide(p, top, up, down, length)
        p = down[p]
    lft = left[i]
    rgt = right[i]
    right[lft] = rgt
    left[rgt] = lft


@njit(cache=True, inline="always")
def _uncover(i, top, up, down, left, right, length):
    lft = left[i]
    rgt = right[i]
    right[lft] = i
    left[rgt] = i
    p = up[i]
    while p != i:
        _unhide(p, top, up, down, length)
        p = up[p]


@njit(cache=True, nogil=True)
def run(top, up, down, left, right, length, choice, branches, tried, state, budget, stop_at_solution):
    """Search on from ``state`` for at most ``budget`` nodes; returns BUDGET_SPENT, FOUND or FINISHED.

    ``branches[level]`` is how many options the chosen item had and ``tried[level]``
    how many of them were done, for Knuth's estimate of the share of the tree searched.
    With ``stop_at_solution`` it returns FOUND at each solution (``choice[:level]``).
    """
    step = state[S_STEP]
    level = state[S_LEVEL]
    used = 0
    while True:
        if step == STEP_ENTER:
            if used >= budget:
                state[S_STEP] = step
                state[S_LEVEL] = level
                return BUDGET_SPENT
            used += 1
            state[S_NODES] += 1
            if right[0] == 0:  # every primary item is covered
                state[S_COUNT] += 1
                step = STEP_LEAVE
                if stop_at_solution:
                    state[S_STEP] = step
                    state[S_LEVEL] = level
                    return FOUND
                continue
            # the most constrained item (fewest options), first one on ties
            best = right[0]
            fewest = length[best]
            i = right[best]
            while i != 0 and fewest > 0:  # an item with no option left ends the branch at once
                if length[i] < fewest:
                    best = i
                    fewest = length[i]
                i = right[i]
            _cover(best, top, up, down, left, right, length)
            choice[level] = down[best]
            branches[level] = fewest
            tried[level] = 0
            step = STEP_TRY
        elif step == STEP_TRY:
            x = choice[level]
            i = top[x]
            if x == i:  # every option of the item was tried
                _uncover(i, top, up, down, left, right, length)
                step = STEP_LEAVE
                continue
            p = x + 1
            while p != x:
                j = top[p]
                if j <= 0:
                    p = up[p]
                else:
                    _cover(j, top, up, down, left, right, length)
                    p += 1
            level += 1
            step = STEP_ENTER
        elif step == STEP_NEXT:
            x = choice[level]
            p = x - 1
            while p != x:
                j = top[p]
                if j <= 0:
                    p = down[p]
                else:
                    _uncover(j, top, up, down, left, right, length)
                    p -= 1
            choice[level] = down[x]
            tried[level] += 1
            step = STEP_TRY
        elif step == STEP_LEAVE:
            if level == 0:
                state[S_STEP] = STEP_DONE
                state[S_LEVEL] = 0
                return FINISHED
            level -= 1
            step = STEP_NEXT
        else:  # STEP_DONE
            state[S_STEP] = step
            state[S_LEVEL] = level
            return FINISHED
