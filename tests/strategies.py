"""Hypothesis strategies shared by the property tests: tables, variant rules and JSON junk."""

from __future__ import annotations

import json
import sys
from typing import Any

from hypothesis import strategies as st

import brisca

#: Table and pack options, every table size and side arrangement.
tables = st.sampled_from(
    [
        {"num_players": 2},
        {"num_players": 2, "deck": "spanish48"},
        {"num_players": 3},
        {"num_players": 3, "deck": "no_twos36"},
        {"num_players": 3, "removed_cards": "all_twos"},
        {"num_players": 4},
        {"num_players": 4, "team_mode": "teams_alternating"},
        {"num_players": 5, "team_mode": "sit_out_partners"},
        {"num_players": 6, "deck": "no_twos36", "team_mode": "teams_alternating"},
        {"num_players": 6, "deck": "spanish48"},
    ]
)

_variant_options = st.fixed_dictionaries(
    {
        "table": tables,
        "trump_visibility": st.sampled_from(list(brisca.TrumpVisibility)),
        "trump_selection": st.sampled_from(["turned_card", "suit_rotation"]),
        "swaps": st.sampled_from([None, *brisca.SWAP_BUNDLES]),
        "play_obligation": st.sampled_from(list(brisca.PlayObligation)),
        "arrastre_must_beat": st.booleans(),
        "arrastre_overtrump": st.sampled_from(list(brisca.Overtrump)),
        "arrastre_cannot_overtrump": st.sampled_from(list(brisca.CannotOvertrump)),
        "arrastre_partner_relief": st.booleans(),
        "black_hand": st.sampled_from(list(brisca.BlackHand)),
        "black_hand_claim": st.sampled_from(list(brisca.BlackHandClaim)),
        "signals": st.sampled_from(list(brisca.Signals)),
        "signal_vocabulary": st.sampled_from(list(brisca.SignalVocabulary)),
        "signal_timing": st.sampled_from(list(brisca.SignalTiming)),
        "partner_hand_visibility": st.sampled_from(list(brisca.PartnerHandVisibility)),
        "rank_scheme": st.sampled_from(list(brisca.RankScheme)),
    }
)


def _repaired(drawn: dict[str, Any]) -> brisca.Rules:
    """Rules from drawn options, dropping the options that clash with the others.

    The repairs follow the clashes `Rules` refuses (SPEC §2.2 to §2.9), so almost every
    draw gives a game instead of being thrown away.
    """
    options = dict(drawn)
    table = options.pop("table")
    bundle = options.pop("swaps")
    if bundle:
        options.update(brisca.SWAP_BUNDLES[bundle])
    if options["trump_visibility"] is brisca.TrumpVisibility.CUBIERTA:
        options.update(swap_enabled=False, black_hand="off", play_obligation="free", signals="none")
    if options["trump_selection"] == "suit_rotation":
        options.update(trump_visibility="face_up", swap_enabled=False)
    if table.get("team_mode") is None:  # seats play alone: no partners to signal or show
        options.update(signals="none", partner_hand_visibility="none")
    try:
        return brisca.Rules(**table, **options)
    except brisca.RulesError:  # a pack that does not total 120 under the rank scheme
        return brisca.Rules(**table, **{**options, "rank_scheme": "standard"})


#: Valid rules drawn from every variant option of SPEC §2.2 to §2.6 and §2.9.
variant_rules = _variant_options.map(_repaired)


def any_json(
    *, max_leaves: int = 20, text_size: int = 4, floats: bool = False
) -> st.SearchStrategy[object]:
    """Any JSON value, nested, for fuzzing what reads JSON (floats only when asked)."""
    scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=text_size)
    if floats:
        scalars |= st.floats()
    return st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=max_leaves,
    )


#: Text holding a digit or number sign that is not ASCII 0-9: superscripts, fractions,
#: Arabic-Indic, full-width, Roman numerals.
foreign_digits = st.characters(categories=["Nd", "Nl", "No"]).filter(lambda c: not c.isascii())


def nested(value: object, depth: int) -> object:
    """`value` inside `depth` levels of lists and objects, built without recursion."""
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    return value


def nested_json(value: object, depth: int) -> str:
    """The JSON text of `value` inside `depth` levels of lists and objects, written
    without recursion, as Python's encoder would fail past its recursion limit."""
    opening = "".join('{"k": ' if level % 2 == 0 else "[" for level in range(depth))
    closing = "".join("}" if level % 2 == 0 else "]" for level in reversed(range(depth)))
    return opening + json.dumps(value) + closing


@st.composite
def mutated(draw: st.DrawFn, document: object, *, leaves: int = 6) -> object:
    """`document` (decoded JSON) with one change at a drawn place: a value replaced by
    any JSON, a key deleted or added, or a value buried deep in nesting."""
    data = json.loads(json.dumps(document))
    path: list[Any] = []
    node: Any = data
    while isinstance(node, (dict, list)) and node and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
        path.append(key)
        node = node[key]
    if not path:
        return draw(any_json(max_leaves=leaves))
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    change = draw(st.sampled_from(["replace", "delete", "add", "deep", "nudge"]))
    if change == "delete" and isinstance(parent, dict):
        del parent[key]
    elif change == "add" and isinstance(parent, dict):
        parent[draw(st.text(max_size=6))] = draw(any_json(max_leaves=leaves))
    elif change == "deep":
        parent[key] = nested(node, draw(st.sampled_from([65, 200, 1500])))
    elif change == "nudge" and type(node) is int:
        parent[key] = node + draw(st.sampled_from([-1, 1, 2, 10**30]))
    else:
        parent[key] = draw(any_json(max_leaves=leaves))
    return data


def to_text(data: object) -> str:
    """JSON text of `data`, however deep it nests."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))  # the encoder recurses once per level
    try:
        return json.dumps(data)
    finally:
        sys.setrecursionlimit(limit)


#: Auction tables: subastada (SPEC §2.7) for 3 and 4, chiamata (§2.8) for 5 and 6.
auction_tables = st.sampled_from(
    [
        {"num_players": 3, "team_mode": "declarer_vs_rest", "trump_selection": "auction"},
        {"num_players": 4, "team_mode": "declarer_vs_rest", "trump_selection": "auction"},
        {"num_players": 4, "team_mode": "partners_opposite", "trump_selection": "auction"},
        {"num_players": 5, "team_mode": "called_partner", "trump_selection": "called_card"},
        {"num_players": 6, "team_mode": "called_partner", "trump_selection": "called_card"},
    ]
)

_auction_options = st.fixed_dictionaries(
    {
        "table": auction_tables,
        "first_leader": st.sampled_from(list(brisca.FirstLeader)),
        "cantes": st.booleans(),
        "chiamata_two_rule": st.sampled_from(list(brisca.ChiamataTwoRule)),
        # Arrastre twice as often as free play: the duties are where hidden sides matter.
        "play_obligation": st.sampled_from(
            [*brisca.PlayObligation, *list(brisca.PlayObligation)[1:]]
        ),
        "arrastre_must_beat": st.booleans(),
        "arrastre_overtrump": st.sampled_from(list(brisca.Overtrump)),
        "arrastre_cannot_overtrump": st.sampled_from(list(brisca.CannotOvertrump)),
        "arrastre_partner_relief": st.booleans(),
        "signals": st.sampled_from(list(brisca.Signals)),
        "signal_vocabulary": st.sampled_from(list(brisca.SignalVocabulary)),
        "signal_timing": st.sampled_from(list(brisca.SignalTiming)),
        "partner_hand_visibility": st.sampled_from(list(brisca.PartnerHandVisibility)),
        "rank_scheme": st.sampled_from(list(brisca.RankScheme)),
    }
)


def _auction_repaired(drawn: dict[str, Any]) -> brisca.Rules:
    """Rules from drawn auction options, dropping the options that clash with the others.

    Options are kept whenever `Rules` accepts them, so that a combination it should refuse
    but does not still reaches the property tests.
    """
    options = dict(drawn)
    table = options.pop("table")
    chiamata = table["trump_selection"] == "called_card"
    if chiamata:
        options.update(deal_all=True, cantes=False)
    if table["team_mode"] != "partners_opposite":  # no fixed partners to signal or show
        options.update(signals="none", partner_hand_visibility="none")
    if table["num_players"] == 3:
        options.update(hand_win_rule="over_60")
    fallbacks: list[dict[str, object]] = [
        {},
        {"arrastre_partner_relief": False},
        {"first_leader": "dealer_right"},
        {"rank_scheme": "standard"},
    ]
    for fallback in fallbacks:
        options.update(fallback)
        try:
            return brisca.Rules(**table, **options)
        except brisca.RulesError:
            continue
    return brisca.Rules(**table, **options)


#: Valid auction rules: subastada and chiamata with arrastre, signals and the other options.
auction_rules = _auction_options.map(_auction_repaired)

#: Valid rules of any kind: the variant options of `variant_rules` and the auctions.
any_rules = st.one_of(variant_rules, auction_rules)
