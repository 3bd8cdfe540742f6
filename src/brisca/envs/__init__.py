"""Adapters to the learning frameworks, each behind its own optional extra.

- :mod:`brisca.envs.pettingzoo`: a PettingZoo AEC environment (``brisca[pettingzoo]``);
- :mod:`brisca.envs.gymnasium`: a single-agent Gymnasium environment against the
  library's bots (``brisca[gym]``).

Nothing is imported here, so that ``import brisca.envs`` needs no framework.
"""
