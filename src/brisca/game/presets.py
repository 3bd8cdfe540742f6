"""Named presets: each tradition of SPEC §3 as a `Rules` value.

>>> preset("spanish-4p").team_mode
<TeamMode.PARTNERS_OPPOSITE: 'partners_opposite'>
"""

from __future__ import annotations

import difflib
import functools
import json
from types import MappingProxyType
from typing import Any

import attrs

from brisca.game.errors import BARE_ERRORS, BriscaError, RulesError, describe, plain_text
from brisca.game.jsonio import Fields, plain_json
from brisca.game.rules import SWAP_BUNDLES, Rules

__all__ = [
    "PRESETS",
    "preset",
    "preset_name",
    "read_rules",
    "rules_from_dict",
    "rules_to_dict",
    "unknown_preset",
]

# S000, S004: a tie replays the hand at double stake; matches to 3 hands won.
_SPANISH_2P = Rules(tie_rule="replay_double_stake")
# S000: partners opposite, with the señas of S000 made before the hand.
_SPANISH_4P = attrs.evolve(
    _SPANISH_2P,
    num_players=4,
    team_mode="partners_opposite",
    signals="public",
    signal_vocabulary="s000",
    signal_timing="pre_hand",
)
# S002: a tie is a draw, the highest score wins, the Puerto Rican swaps are played.
_PUERTO_RICAN_2P = Rules(tie_rule="draw", hand_win_rule="highest", **SWAP_BUNDLES["puerto_rican"])
# S004, TS: arrastre once the stock is gone, beating and overtrumping.
_ARRASTRE: dict[str, Any] = {
    "play_obligation": "arrastre_after_stock",
    "arrastre_must_beat": True,
    "arrastre_overtrump": "required",
    "arrastre_cannot_overtrump": "free",
}
# S003: random first dealer, swaps, black hand, ties to the last trick.
_CASINO: dict[str, Any] = {
    "first_dealer": "random",
    **SWAP_BUNDLES["casino"],
    "black_hand": "any_time",
    "black_hand_claim": "declare",
    "tie_rule": "last_trick",
    "match_target": 3,
}

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
        "arrastre-2p": attrs.evolve(_SPANISH_2P, **_ARRASTRE),
        "arrastre-4p": attrs.evolve(_SPANISH_4P, **_ARRASTRE),
        "cubierta-2p": attrs.evolve(_SPANISH_2P, trump_visibility="cubierta"),  # S000
        "casino-2p": Rules(**_CASINO),
        "casino-4p": Rules(num_players=4, team_mode="partners_opposite", **_CASINO),
        # SPEC §2.7: S000's outline with Tute subastado details [P]; matches to 500 (TS).
        "subastada-3p": Rules(
            num_players=3,
            removed_cards=["2B"],
            team_mode="declarer_vs_rest",
            trump_selection="auction",
            cantes=True,
            match_mode="game_points",
            match_target=500,
        ),
        "subastada-4p": Rules(
            num_players=4,
            team_mode="partners_opposite",
            trump_selection="auction",
            cantes=True,
            match_mode="game_points",
            match_target=500,
        ),
        # SPEC §2.8: 5 players, 8 cards each, the called card's holder a secret partner;
        # matches to 10 points [P] (no source gives a target).
        "chiamata-5p": Rules(
            num_players=5,
            team_mode="called_partner",
            trump_selection="called_card",
            deal_all=True,
            match_mode="game_points",
            match_target=10,
        ),
        # S000 rematada to 101 over several hands; CL: the 4-player game is the usual one.
        "chilean-rematada": Rules(
            num_players=4,
            team_mode="partners_opposite",
            match_mode="cumulative_card_points",
            match_target=101,
        ),
    }
)


def preset(name: str) -> Rules:
    """The rules of a named preset, such as ``"spanish-2p"``.

    Raises:
        RulesError: no preset has that name.
    """
    if isinstance(name, str):
        name = plain_text(name)
    try:
        return PRESETS[name]
    except BARE_ERRORS:  # not a name, unhashable, or a hash or == that raises
        pass
    close = difflib.get_close_matches(name, PRESETS, n=3) if type(name) is str else []
    hint = f"did you mean {', '.join(close)}? " if close else ""
    raise RulesError(f"unknown preset {describe(name)}; {hint}brisca.PRESETS lists them all")


def preset_name(rules: Rules) -> str | None:
    """The name of the preset equal to `rules`, if there is one (the first, in
    :data:`PRESETS` order).

    >>> preset_name(preset("arrastre-2p")), preset_name(Rules(match_target=7))
    ('arrastre-2p', None)

    Raises:
        RulesError: `rules` is not a Rules.
    """
    if type(rules) is not Rules:
        raise RulesError(f"expected a brisca.Rules, got {describe(rules)}")
    return next((name for name, value in PRESETS.items() if value == rules), None)


@functools.lru_cache(maxsize=256)
def _nearest(rules: Rules) -> tuple[str, tuple[tuple[str, Any], ...]]:
    options = rules.to_dict()
    best: tuple[str, tuple[tuple[str, Any], ...]] | None = None
    for name, base in PRESETS.items():
        defaults = base.to_dict()
        overrides = tuple((k, v) for k, v in options.items() if defaults.get(k) != v)
        if best is None or len(overrides) < len(best[1]):
            best = (name, overrides)
    assert best is not None  # there are presets
    return best


def rules_to_dict(rules: Rules, against: str | None = None) -> dict[str, Any]:
    """`rules` as JSON-ready data: a preset and the options that differ from it.

    The preset is `against` when given, else the one that needs the fewest
    overrides (the first such in :data:`PRESETS`), so the usual rules take a few
    bytes rather than every option. :func:`rules_from_dict` reads it back. Game
    records, saved states and observations all write their rules this way.

    >>> import attrs
    >>> rules_to_dict(attrs.evolve(PRESETS["arrastre-2p"], match_target=5))
    {'preset': 'arrastre-2p', 'overrides': {'match_target': 5}}

    Raises:
        RulesError: `rules` is not a Rules, or `against` is not a preset's name.
    """
    if type(rules) is not Rules:
        raise RulesError(f"expected a brisca.Rules, got {describe(rules)}")
    if against is None:
        against, overrides = _nearest(rules)
        return {"preset": against, "overrides": _fresh(overrides)}
    preset(against)  # refuses what is not a preset's name, before the cache hashes it
    against = plain_text(against)
    return {"preset": against, "overrides": _fresh(_against(rules, against))}


def _fresh(overrides: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    """Cached overrides as the caller's own dict: list values (``removed_cards``,
    ``chiamata_scores``) copied, so no edit of one result shows in another."""
    return {k: list(v) if type(v) is list else v for k, v in overrides}


@functools.lru_cache(maxsize=256)  # a store writes the same rules at every move
def _against(rules: Rules, name: str) -> tuple[tuple[str, Any], ...]:
    base = preset(name).to_dict()
    return tuple((k, v) for k, v in rules.to_dict().items() if base.get(k) != v)


def rules_from_dict(data: object) -> Rules:
    """Rules from their JSON form, as records, saved states and views write them: a
    preset and its overrides (what :func:`rules_to_dict` gives), or
    ``{"options": {...}}`` with every option.

    >>> rules_from_dict({"preset": "arrastre-2p", "overrides": {"match_target": 5}}).match_target
    5

    Raises:
        NotationError: neither form, or a field of the wrong type.
        RulesError: an unknown preset, or options the rules refuse.
    """
    return read_rules(data)[0]


def read_rules(data: object) -> tuple[Rules, str | None]:
    """Rules from their JSON form (see :func:`rules_from_dict`), and the preset it names."""
    fields = Fields(data, "rules")
    if fields.has("options"):
        fields.only(("options",))
        return _build_rules(Fields(fields.get("options", dict), "options").data), None
    fields.only(("preset", "overrides"))
    name = plain_text(fields.get("preset", str))
    if name not in PRESETS:
        raise unknown_preset(name)
    # Through Fields, for keys as plain text: a caller's dict may hold a str subclass's.
    overrides = Fields(fields.get("overrides", dict, required=False) or {}, "overrides").data
    return _build_rules({**PRESETS[name].to_dict(), **overrides}), name


# Rules read before, by the canonical text of their options: a server loads the same
# few rules over and over, and one Rules object for each lets the engine's caches hit.
_RULES_READ: dict[str, Rules] = {}


def _build_rules(options: dict[Any, Any]) -> Rules:
    key: str | None = None  # no cache for what is not plain JSON: its text may pass for it
    if plain_json(options):
        try:
            key = json.dumps(options, sort_keys=True)
        except (TypeError, ValueError):  # an int too long to write: no cache for it
            key = None
    known = None if key is None else _RULES_READ.get(key)
    if known is not None:
        return known
    try:
        rules = Rules.from_dict(options)
    except BriscaError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as error:
        # Untrusted options must fail as a BriscaError, whatever a converter tripped on.
        raise RulesError(f"invalid rules options: {error}") from None
    if key is not None:
        if len(_RULES_READ) >= 256:
            _RULES_READ.clear()
        _RULES_READ[key] = rules
    return rules


def unknown_preset(name: object) -> RulesError:
    """The error for a preset name that a document gives and no preset has."""
    return RulesError(
        f"unknown preset {describe(name, typed=False)}; brisca.PRESETS lists the "
        f"{len(PRESETS)} presets, such as spanish-2p or arrastre-4p"
    )
