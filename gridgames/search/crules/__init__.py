"""The framework's engines on a plugin's compiled rules (`gridgames.compiled_rules`): `engines.Engines` (perft,
playouts, MCTS, negamax with a transposition table, an exact solver), built per plugin by `build` from the template
`kernels`."""
