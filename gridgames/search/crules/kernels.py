"""The compiled engines over a plugin's compiled rules: perft, random playouts, MCTS, negamax with a transposition
table, an exact solver and a batched step for vector environments.

This file is a template: `gridgames.search.crules.build` writes a copy of it for each plugin's rules, with the
block between the two ``# --- rules`` lines importing the plugin's functions instead of the stand-ins, into the
user's cache folder, where numba caches its machine code (a function's machine code is cached only when the
functions it calls are globals, not arguments). Every position is an int64 array (`CompiledRules.state_size`
words); ``stack`` holds one row per ply (copy-make: a child is its parent's row copied and played), ``masks`` one
legal-move mask per ply; ``p`` is `CompiledRules.params`. The searches' root loops run in Python
(`gridgames.search.crules.engines`): numba's cached machine code of a function calling a recursive one crashes.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from gridgames.search.crules.rand import rand_below

# --- rules: the generated copy imports the plugin's functions here ---
from gridgames.search.crules._stub import board, evaluate, legal, play, result, rollout, score, state_hash, to_move

HAS_SCORE = False
HAS_EVALUATE = False
HAS_ROLLOUT = False
HAS_BOARD = False
NUM_PLAYERS = 2
# --- rules end ---

ONGOING = -1
DRAW = -2
WIN = 1_000_000.0
FORCED = WIN / 4

# ctl words of a search
NODES, MAX_NODES, HIT_HORIZON, SCORED, STOPPED = 0, 1, 2, 3, 4
# tree columns of MCTS
PARENT, MOVE, MOVER, FIRST, NEXT, NCHILD, NLEGAL = 0, 1, 2, 3, 4, 5, 6
VISITS, VALUE = 0, 1
# transposition table flags
EXACT, LOWER, UPPER = 1, 2, 3
HORIZON = 4  # a negamax entry whose search reached the depth horizon somewhere


@njit(cache=True)
def value_for(s, p, code, player):
    """The result for ``player`` of a finished game (``code`` from ``result``), as `Outcome.value_for` gives it."""
    if code == DRAW:
        return 0.0
    sign = 1.0 if code == player else -1.0
    if not HAS_SCORE or NUM_PLAYERS < 2:
        return sign
    other = -1e300
    for q in range(NUM_PLAYERS):
        if q != code:
            other = max(other, score(s, p, q))
    margin = max(0.0, score(s, p, code) - other)
    return sign * (0.5 + 0.5 * margin / (margin + 1.0))


@njit(cache=True)
def pick(mask, k):
    """The index of the k-th (from 0) set entry of ``mask``."""
    for m in range(mask.size):
        if mask[m]:
            if k == 0:
                return m
            k -= 1
    return -1


@njit(cache=True)
def playout_move(s, p, mask, rng):
    """The playout's move in a game that goes on: the plugin's rollout policy, else a uniformly random legal move."""
    if HAS_ROLLOUT:
        return rollout(s, p, mask, rng)
    count = legal(s, p, mask)
    if count == 0:
        raise ValueError("compiled rules: no legal move in a game that is not over")
    return pick(mask, rand_below(rng, count))


@njit(cache=True)
def legal_mask(s, p, mask):
    """The rules' ``legal``, from Python: the count (the mask written in place)."""
    return legal(s, p, mask)


@njit(cache=True)
def step(s, p, move):
    """The rules' ``play``, from Python."""
    play(s, p, move)


@njit(cache=True)
def status(s, p, scores):
    """``(result, to_move)`` of a position, its players' scores (when the rules keep scores) written to ``scores``."""
    code = result(s, p)
    if HAS_SCORE:
        for q in range(NUM_PLAYERS):
            scores[q] = score(s, p, q)
    return code, to_move(s, p)


@njit(cache=True)
def evaluation(s, p):
    """The rules' ``evaluate`` (0.0 without one), from Python."""
    if HAS_EVALUATE:
        return evaluate(s, p)
    return 0.0


@njit(cache=True)
def perft_from(stack, masks, p, ply, depth, counts):
    """Count the positions reached at each ply up to ``depth`` (``counts[ply, 0]``) and the finished games among them
    (``counts[ply, 1]`` draws, ``counts[ply, 2 + w]`` wins of player w)."""
    s = stack[ply]
    counts[ply, 0] += 1
    code = result(s, p)
    if code != ONGOING:
        if code == DRAW:
            counts[ply, 1] += 1
        else:
            counts[ply, 2 + code] += 1
        return
    if ply == depth:
        return
    mask = masks[ply]
    legal(s, p, mask)
    for m in range(mask.size):
        if mask[m]:
            child = stack[ply + 1]
            child[:] = s
            play(child, p, m)
            perft_from(stack, masks, p, ply + 1, depth, counts)


@njit(cache=True)
def random_games(s0, p, games, rng, s, mask, results):
    """Play ``games`` playouts from ``s0``; ``results[w]`` counts wins of player w, ``results[NUM_PLAYERS]`` draws;
    the moves played in all (the work done)."""
    moves = 0
    for _ in range(games):
        s[:] = s0
        code = result(s, p)
        while code == ONGOING:
            play(s, p, playout_move(s, p, mask, rng))
            moves += 1
            code = result(s, p)
        results[NUM_PLAYERS if code == DRAW else code] += 1
    return moves


# ----------------------------------------------------------------------------------------------------------------
# MCTS
# ----------------------------------------------------------------------------------------------------------------
@njit(cache=True)
def mcts_run(root, p, tree, stats, ctl, iterations, exploration, rng, s, mask):
    """Run up to ``iterations`` UCT iterations on the tree (``ctl[0]`` nodes used, ``ctl[1]`` iterations done), as
    `gridgames.search.mcts` does: select, add one node, play out (the rollout policy or random moves), back up."""
    capacity = tree.shape[0]
    for _ in range(iterations):
        if ctl[0] >= capacity:
            break
        s[:] = root
        node = 0
        while True:
            count = tree[node, NLEGAL]
            if count < 0:
                count = legal(s, p, mask)
                tree[node, NLEGAL] = count
            if count == 0:
                break
            if tree[node, NCHILD] < count:  # expansion: a random untried move
                legal(s, p, mask)
                c = tree[node, FIRST]
                while c >= 0:
                    mask[tree[c, MOVE]] = 0
                    c = tree[c, NEXT]
                move = pick(mask, rand_below(rng, count - tree[node, NCHILD]))
                mover = to_move(s, p)
                play(s, p, move)
                child = ctl[0]
                ctl[0] += 1
                tree[child, PARENT] = node
                tree[child, MOVE] = move
                tree[child, MOVER] = mover
                tree[child, FIRST] = -1
                tree[child, NEXT] = tree[node, FIRST]
                tree[child, NCHILD] = 0
                tree[child, NLEGAL] = -1
                stats[child, VISITS] = 0.0
                stats[child, VALUE] = 0.0
                tree[node, FIRST] = child
                tree[node, NCHILD] += 1
                node = child
                break
            best, best_bound = -1, -1e300
            log_visits = math.log(stats[node, VISITS])
            c = tree[node, FIRST]
            while c >= 0:
                visits = stats[c, VISITS]
                bound = stats[c, VALUE] / visits + exploration * math.sqrt(log_visits / visits)
                if bound > best_bound:
                    best, best_bound = c, bound
                c = tree[c, NEXT]
            play(s, p, tree[best, MOVE])
            node = best
        code = result(s, p)
        while code == ONGOING:  # playout
            play(s, p, playout_move(s, p, mask, rng))
            code = result(s, p)
        up = node
        while up >= 0:  # back-propagation
            stats[up, VISITS] += 1.0
            if tree[up, MOVER] >= 0:
                stats[up, VALUE] += value_for(s, p, code, tree[up, MOVER])
            up = tree[up, PARENT]
        ctl[1] += 1


# ----------------------------------------------------------------------------------------------------------------
# Negamax with alpha-beta and a transposition table
# ----------------------------------------------------------------------------------------------------------------
@njit(cache=True)
def nth_move(i, hinted, order, mask):
    """The move searched at step ``i`` of a position (``i`` from -1): at -1 the table's best move ``hinted`` if it is
    legal in ``mask``, then the static ``order`` without ``hinted``; -1 where that step has no legal move."""
    if i < 0:
        return hinted if 0 <= hinted < mask.size and mask[hinted] else -1
    move = order[i]
    return -1 if move == hinted or not mask[move] else move


@njit(cache=True)
def negamax(stack, masks, p, order, depth, alpha, beta, ply, ctl, keys, values, depths, flags, moves):
    """The score of ``stack[ply]`` for the player to move, searched ``depth`` plies (`gridgames.search.negamax`'s
    scores: a win ``WIN - plies``, scored wins by margin, the evaluation at the horizon); 0.0 once stopped."""
    ctl[NODES] += 1
    if ctl[NODES] > ctl[MAX_NODES]:
        ctl[STOPPED] = 1
        return 0.0
    s = stack[ply]
    if depth == 0:
        ctl[HIT_HORIZON] = 1
        if HAS_EVALUATE:
            return min(1.0, max(-1.0, evaluate(s, p)))
        return 0.0
    key = state_hash(s, p)
    slot = np.int64(key & np.uint64(keys.size - 1))
    hinted = -1
    if keys[slot] == key and flags[slot] != 0:
        hinted = moves[slot]
        stored = values[slot]
        if depths[slot] >= depth and abs(stored) < FORCED:
            flag = flags[slot] & 3
            if flag == EXACT or (flag == LOWER and stored >= beta) or (flag == UPPER and stored <= alpha):
                # the stored value came from a search that stopped at a horizon
                if flags[slot] & HORIZON:
                    ctl[HIT_HORIZON] = 1
                return stored
    mask = masks[ply]
    legal(s, p, mask)
    me = to_move(s, p)
    start_alpha = alpha
    outer_horizon = ctl[HIT_HORIZON]
    ctl[HIT_HORIZON] = 0
    best, best_move = -2 * WIN, -1
    child = stack[ply + 1]
    for i in range(-1, order.size):
        move = nth_move(i, hinted, order, mask)
        if move < 0:
            continue
        child[:] = s
        play(child, p, move)
        code = result(child, p)
        if code != ONGOING:
            if HAS_SCORE:
                ctl[SCORED] = 1
            found = value_for(child, p, code, me) * (WIN - ply - 1)
        elif to_move(child, p) == me:  # an extra turn: same side, same window
            found = negamax(
                stack, masks, p, order, depth - 1, alpha, beta, ply + 1, ctl, keys, values, depths, flags, moves
            )
        else:
            found = -negamax(
                stack, masks, p, order, depth - 1, -beta, -alpha, ply + 1, ctl, keys, values, depths, flags, moves
            )
        if ctl[STOPPED]:
            return 0.0
        if found > best:
            best, best_move = found, move
        if found > alpha:
            alpha = found
        if alpha >= beta:
            break
    keys[slot] = key
    values[slot] = best
    depths[slot] = depth
    flags[slot] = (UPPER if best <= start_alpha else (LOWER if best >= beta else EXACT)) | (
        HORIZON if ctl[HIT_HORIZON] else 0
    )
    moves[slot] = best_move
    ctl[HIT_HORIZON] |= outer_horizon
    return best


# ----------------------------------------------------------------------------------------------------------------
# The exact solver: game values (value_for of the end, no distance), alpha-beta with bounds in a table
# ----------------------------------------------------------------------------------------------------------------
@njit(cache=True)
def solve(stack, masks, p, order, ply, alpha, beta, ctl, keys, values, flags, moves):
    """The exact value of ``stack[ply]`` for the player to move (the game's end as `Outcome.value_for` scores it,
    best play by both), within the window; 0.0 once stopped."""
    ctl[NODES] += 1
    if ctl[NODES] > ctl[MAX_NODES]:
        ctl[STOPPED] = 1
        return 0.0
    s = stack[ply]
    key = state_hash(s, p)
    slot = np.int64(key & np.uint64(keys.size - 1))
    hinted = -1
    if keys[slot] == key and flags[slot] != 0:
        hinted = moves[slot]
        stored, flag = values[slot], flags[slot]
        if flag == EXACT:
            return stored
        if flag == LOWER and stored > alpha:
            alpha = stored
        elif flag == UPPER and stored < beta:
            beta = stored
        if alpha >= beta:
            return stored
    mask = masks[ply]
    legal(s, p, mask)
    me = to_move(s, p)
    start_alpha, start_beta = alpha, beta
    best, best_move = -2.0, -1
    child = stack[ply + 1]
    for i in range(-1, order.size):
        move = nth_move(i, hinted, order, mask)
        if move < 0:
            continue
        child[:] = s
        play(child, p, move)
        code = result(child, p)
        if code != ONGOING:
            found = value_for(child, p, code, me)
        elif to_move(child, p) == me:
            found = solve(stack, masks, p, order, ply + 1, alpha, beta, ctl, keys, values, flags, moves)
        else:
            found = -solve(stack, masks, p, order, ply + 1, -beta, -alpha, ctl, keys, values, flags, moves)
        if ctl[STOPPED]:
            return 0.0
        if found > best:
            best, best_move = found, move
        if found > alpha:
            alpha = found
        if alpha >= beta:
            break
    keys[slot] = key
    values[slot] = best
    flags[slot] = UPPER if best <= start_alpha else (LOWER if best >= start_beta else EXACT)
    moves[slot] = best_move
    return best


# ----------------------------------------------------------------------------------------------------------------
# Vector environments: many games of an agent against random replies, stepped in one call
# ----------------------------------------------------------------------------------------------------------------
@njit(cache=True)
def _record(i, move, histories, lengths):
    if lengths[i] < histories.shape[1]:
        histories[i, lengths[i]] = move
    lengths[i] += 1


@njit(cache=True)
def _replies(s, p, i, seat, rngs, mask, histories, lengths):
    """Random replies until the agent in ``seat`` is to move or the game is over."""
    while result(s, p) == ONGOING and to_move(s, p) != seat:
        count = legal(s, p, mask)
        if count == 0:
            raise ValueError("compiled rules: no legal move in a game that is not over")
        move = pick(mask, rand_below(rngs[i], count))
        play(s, p, move)
        _record(i, move, histories, lengths)


@njit(cache=True)
def _observe(s, p, i, seat, observation, action_mask, lookup, cells, mask):
    """Sub-env i's observation from ``seat`` (as `gridgames.rl.core.Observer.observe` with the default planes)."""
    if HAS_BOARD:
        board(s, p, cells)
        width = observation.shape[2]
        last = lookup.shape[1] - 1
        for c in range(cells.size):
            row = min(max(cells[c] + 1, 0), last)
            for plane in range(lookup.shape[2]):
                observation[i, c // width, c % width, plane] = lookup[seat, row, plane]
    if result(s, p) == ONGOING and to_move(s, p) == seat:
        legal(s, p, mask)
        for a in range(mask.size):
            action_mask[i, a] = mask[a]
    else:
        action_mask[i, :] = 0


@njit(cache=True)
def vector_reset(
    states, p, start, which, seat, rngs, observation, action_mask, lookup, cells, mask, histories, lengths
):
    """New games where ``which``, the random replies until the agent's turn, and their observations."""
    for i in range(states.shape[0]):
        if not which[i]:
            continue
        s = states[i]
        s[:] = start
        lengths[i] = 0
        _replies(s, p, i, seat, rngs, mask, histories, lengths)
        _observe(s, p, i, seat, observation, action_mask, lookup, cells, mask)


@njit(cache=True)
def vector_step(
    states,
    p,
    actions,
    active,
    seat,
    rngs,
    reward,
    terminated,
    illegal,
    illegal_reward,
    observation,
    action_mask,
    lookup,
    cells,
    mask,
    histories,
    lengths,
):
    """The agent's actions and the random replies where ``active`` (`gridgames.rl.vector.VectorBackend.step`)."""
    for i in range(states.shape[0]):
        reward[i], terminated[i], illegal[i] = 0.0, False, False
        if not active[i]:
            continue
        s = states[i]
        move = actions[i]
        ok = result(s, p) == ONGOING and to_move(s, p) == seat and 0 <= move < mask.size
        if ok:
            legal(s, p, mask)
            ok = mask[move] != 0
        if not ok:
            reward[i], terminated[i], illegal[i] = illegal_reward, True, True
            continue
        play(s, p, move)
        _record(i, move, histories, lengths)
        _replies(s, p, i, seat, rngs, mask, histories, lengths)
        code = result(s, p)
        if code != ONGOING:
            terminated[i] = True
            reward[i] = 0.0 if code == DRAW else (1.0 if code == seat else -1.0)
        _observe(s, p, i, seat, observation, action_mask, lookup, cells, mask)
