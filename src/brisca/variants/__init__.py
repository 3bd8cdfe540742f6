"""The optional rules of SPEC §2, one module each, all driven by `Rules` options.

Each module gives the engine the same three things for its actions: why an
action is refused (``refusal``), which actions are on offer (``offered``) and
what an action does (``apply``). The engine's one rule check calls them, so
``legal_actions``, ``is_legal`` and ``apply`` agree for every variant.
"""
