"""Hypothesis profiles: deterministic by default, so CI and the README's test command repeat.

Set HYPOTHESIS_PROFILE=thorough for a longer, randomised search on a developer machine.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
    # A failing game is already small; shrinking whole games can take minutes.
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target],
)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
