"""Connect Four for learning agents: many games stepped together in compiled kernels, the backend of
``gridgames.rl.vector_env("connect4")`` (`vector`), the kernels themselves (`vector_kernels`), where they come
from, built ahead of time or numba's JIT (`vector_aot`), and the perfect opponent past the opening book
(`vector_perfect`).
"""
