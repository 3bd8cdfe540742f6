"""Named presets: each tradition of SPEC §3 as a `Rules` value.

>>> preset("spanish-4p").team_mode
<TeamMode.PARTNERS_OPPOSITE: 'partners_opposite'>
"""

from __future__ import annotations

from types import MappingProxyType

import attrs

from brisca.errors import RulesError
from brisca.rules import Rules

__all__ = ["PRESETS", "preset"]

_SPANISH_2P = Rules(tie_rule="replay_double_stake")  # S000, S004
_SPANISH_4P = attrs.evolve(_SPANISH_2P, num_players=4, team_mode="partners_opposite")  # S000
_PUERTO_RICAN_2P = Rules(tie_rule="draw", hand_win_rule="highest")  # S002

#: Every preset by name. Read-only; use :func:`attrs.evolve` to vary one.
PRESETS: MappingProxyType[str, Rules] = MappingProxyType(
    {
        "spanish-2p": _SPANISH_2P,
        "spanish-3p": attrs.evolve(
            _SPANISH_2P, num_players=3, removed_cards=["2B"], hand_win_rule="highest"
        ),  # S004
        "spanish-4p": _SPANISH_4P,
        "spanish-5p": attrs.evolve(
            _SPANISH_4P, num_players=5, team_mode="sit_out_partners", sit_out="dealer_sits_out"
        ),  # S000 [P]
        "spanish-6p": attrs.evolve(
            _SPANISH_4P, num_players=6, team_mode="teams_alternating", deck="spanish48"
        ),  # S000, WB, CC
        "puerto-rican-2p": _PUERTO_RICAN_2P,
        "puerto-rican-3p": attrs.evolve(_PUERTO_RICAN_2P, num_players=3, removed_cards=["4B"]),
        "puerto-rican-4p": attrs.evolve(
            _PUERTO_RICAN_2P, num_players=4, team_mode="partners_opposite"
        ),
    }
)


def preset(name: str) -> Rules:
    """The rules of a named preset, such as ``"spanish-2p"``.

    Raises:
        RulesError: no preset has that name.
    """
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise RulesError(
            f"unknown preset {name!r}; the presets are: {', '.join(PRESETS)}"
        ) from None
