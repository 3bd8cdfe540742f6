"""Which rules the batch engine covers, and the int64 tables its kernel reads.

The tables come from the library's own definitions: card points and strength from
`Rules.card_points` and `Rules.card_strength`, the action indices from
:func:`brisca.agents.encoding.action_space`, the sides from the engine's table.
"""

from __future__ import annotations

from types import MappingProxyType

import attrs
import numpy as np
import numpy.typing as npt

from brisca.agents.encoding import action_space
from brisca.game.actions import Play, Signal, Swap
from brisca.game.cards import Suit
from brisca.game.engine import checked_rules
from brisca.game.errors import RulesError
from brisca.game.presets import PRESETS
from brisca.game.rules import HandWinRule, PlayObligation, Rules, Signals
from brisca.game.state import seating_for
from brisca.game.variants.signals import VOCABULARIES

__all__ = ["COVERED", "HAND_OPTIONS", "Tables", "covered_rules", "kernel_tables"]

#: The presets whose hands the batch engine plays, each proven equal to the engine.
COVERED = (
    "spanish-2p",
    "spanish-3p",
    "spanish-4p",
    "spanish-6p",
    "arrastre-2p",
    "arrastre-4p",
    "puerto-rican-2p",
    "puerto-rican-3p",
    "puerto-rican-4p",
)

# Options that change nothing within one hand dealt from a given deck: matches, the
# physical direction, where a seeded shuffle takes the turned card from, and options of
# rules that none of the covered presets switches on (auctions, sitting out).
_OUTSIDE_A_HAND = frozenset(
    {
        "direction",
        "first_dealer",
        "dealer_rotation",
        "match_mode",
        "match_target",
        "margin_points",
        "capote_definition",
        "trump_card_position",
        "sit_out",
        "bid_minimum",
        "bid_step",
        "subasta_scoring",
        "chiamata_two_rule",
        "chiamata_point_minimum",
        "chiamata_scores",
    }
)

#: The options that shape a hand: a Rules is covered when these equal a covered preset's.
HAND_OPTIONS = tuple(f.name for f in attrs.fields(Rules) if f.name not in _OUTSIDE_A_HAND)

#: Suits as the kernel numbers them, as the encodings do.
_SUITS = (Suit.OROS, Suit.COPAS, Suit.ESPADAS, Suit.BASTOS)

#: The kernel's view of a Rules: one int64 array, a row per table of brisca.batch.kernel
#: (one array, so that a compiled call counts one reference, not one per table).
Tables = npt.NDArray[np.int64]


def _hand_options(rules: Rules) -> dict[str, object]:
    options = rules.to_dict()
    return {name: options[name] for name in HAND_OPTIONS}


_COVERED_OPTIONS = MappingProxyType({name: _hand_options(PRESETS[name]) for name in COVERED})


def covered_rules(rules: Rules | str) -> Rules:
    """`rules` (a Rules or a preset's name) if the batch engine covers its hands.

    Covered: the hands of the presets in :data:`COVERED`, with any options that play
    no part in a hand changed (matches, direction, auction settings).

    Raises:
        RulesError: `rules` is not a Rules or a preset's name, or the batch does not cover it.
    """
    rules = checked_rules(rules)
    options = _hand_options(rules)
    best: tuple[str, list[str]] | None = None
    for name, known in _COVERED_OPTIONS.items():
        differ = [f"{k}={options[k]!r}" for k in HAND_OPTIONS if options[k] != known[k]]
        if not differ:
            return rules
        if best is None or len(differ) < len(best[1]):
            best = (name, differ)
    assert best is not None
    raise RulesError(
        f"brisca.batch covers the hands of {', '.join(COVERED)} only; these rules differ "
        f"from the nearest, {best[0]}, in {', '.join(best[1][:4])}"
        + (", ..." if len(best[1]) > 4 else "")
    )


def kernel_tables(rules: Rules) -> Tables:
    """The int64 tables of brisca.batch.kernel for covered `rules`."""
    # Deferred: the kernel compiles on first use, not when the tables are read.
    import brisca.batch.kernel as k

    rules = covered_rules(rules)
    cards = rules.cards
    ids = {card: i for i, card in enumerate(cards)}
    table = seating_for(rules, rules.num_players - 1)
    suit = [_SUITS.index(card.suit) for card in cards]
    strength = [rules.card_strength(c) for c in cards]
    beats = [
        sum(1 << j for j in range(len(cards)) if suit[j] == suit[i] and strength[j] > strength[i])
        for i in range(len(cards))
    ]
    suit_mask = [sum(1 << i for i in range(len(cards)) if suit[i] == s) for s in range(4)]
    space = action_space(rules)
    play_act, swap_act, signal_act = [-1] * len(cards), [-1] * len(cards), [-1] * 4
    vocabulary = list(VOCABULARIES[rules.signal_vocabulary])
    kinds, args = [], []
    for index, action in enumerate(space):
        if type(action) is Play:
            play_act[ids[action.card]] = index
            kinds.append(k.PLAY)
            args.append(ids[action.card])
        elif type(action) is Swap:
            swap_act[ids[action.card]] = index
            kinds.append(k.SWAP)
            args.append(ids[action.card])
        else:
            assert type(action) is Signal  # the covered rules offer nothing else
            signal_act[vocabulary.index(action.name)] = index
            kinds.append(k.SIGNAL_ACTION)
            args.append(vocabulary.index(action.name))
    config = [0] * (k.C_ACTIONS + 1)
    config[k.C_SEATS] = rules.num_players
    config[k.C_CARDS] = len(cards)
    config[k.C_HAND_SIZE] = rules.hand_size
    config[k.C_TRICKS] = rules.tricks_per_hand
    config[k.C_ARRASTRE] = rules.play_obligation is PlayObligation.ARRASTRE_AFTER_STOCK
    config[k.C_SWAPS] = rules.swap_enabled
    config[k.C_SEVEN_HIGH] = rules.swap_seven_for_high
    config[k.C_TWO_LOW] = rules.swap_two_for_low
    config[k.C_TWO_HIGH_FIRST] = rules.swap_two_for_high_pre_first_trick
    config[k.C_TWO_PRECEDENCE] = rules.swap_two_precedence
    config[k.C_SIGNALS] = rules.signals is Signals.PUBLIC
    config[k.C_SIDES] = len(table.sides)
    config[k.C_OVER_60] = rules.hand_win_rule is HandWinRule.OVER_60
    config[k.C_ACTIONS] = len(space)
    columns = (
        config,
        suit,
        strength,
        [rules.card_points(c) for c in cards],
        [c.rank for c in cards],
        beats,
        suit_mask,
        list(table.side_of),
        play_act,
        swap_act,
        signal_act,
        kinds,
        args,
    )
    tables = np.full((len(columns), k.TABLE_WIDTH), -1, dtype=np.int64)
    for i, column in enumerate(columns):
        tables[i, : len(column)] = column
    return tables
