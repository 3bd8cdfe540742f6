"""The optional rules of SPEC §2, one module each, all driven by `Rules` options.

Each module implements the one protocol, :class:`~brisca.game.variants.variant.Variant`,
and :data:`VARIANTS` lists them. The engine iterates this registry for
legality, offers, transitions, observations and events; the encoding builds
its action space from it. So ``legal_actions``, ``is_legal`` and ``apply``
agree for every variant, and a new rule is one module and one line here.
"""

from __future__ import annotations

from typing import Final

from brisca.game.actions import made
from brisca.game.variants import arrastre, auction, black_hand, cantes, signals, swaps
from brisca.game.variants.variant import Log, Variant

__all__ = ["VARIANTS", "Log", "Variant", "owner"]

#: Every optional rule, in the order their actions are offered: the black-hand
#: claim, swaps, cantes, signals; the auction comes alone, before the trump.
VARIANTS: tuple[Variant, ...] = (
    arrastre.VARIANT,
    black_hand.VARIANT,
    swaps.VARIANT,
    cantes.VARIANT,
    signals.VARIANT,
    auction.VARIANT,
)

_OWNERS: Final = {kind: variant for variant in VARIANTS for kind in variant.actions}

for _variant in VARIANTS:  # the actions the variants offer, known well formed at once
    for _action in _variant.universe:
        made(_action)


def owner(kind: type) -> Variant | None:
    """The variant that owns action type `kind`, or ``None`` (for `Play`, or no action)."""
    return _OWNERS.get(kind)
