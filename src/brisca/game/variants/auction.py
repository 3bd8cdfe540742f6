"""Auctions: Brisca subastada (SPEC §2.7) and Briscola chiamata (SPEC §2.8).

Bidding starts at the dealer's right and goes round in play order; a pass is
final. It ends when one bidder is left who has bid; if every seat passes, the
hand is void and is dealt again by the match's next dealer [P].

- Subastada: a bid is a number of points, at least `bid_minimum` and in steps of
  `bid_step` above the last; the winner names trump (`NameTrump`).
- Chiamata: a bid names a rank, each strictly lower in trick order than the last
  (`BidRank`); after a "2", bids become "2 + points" (`Bid`), from
  `chiamata_point_minimum` up to 120, or the "2" closes the auction
  (`chiamata_two_rule`). The winner calls a card of the winning rank
  (`CallCard`); its suit is trump and its holder the secret partner.
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from brisca.game.actions import MAX_BID as ACTIONS_MAX_BID
from brisca.game.actions import Action, Bid, BidRank, CallCard, NameTrump, Pass, Play
from brisca.game.cards import RANKS, Card, DeckKind, Suit, deck_cards
from brisca.game.events import Announced, AuctionWon, PartnerRevealed
from brisca.game.rules import ChiamataTwoRule, Rules, SubastaScoring, TrumpSelection
from brisca.game.state import (
    BidRecord,
    Contract,
    ContractResult,
    HandResult,
    Seat,
    State,
    Termination,
    evolve_ledger,
    evolve_state,
    seating_for,
)
from brisca.game.variants.cantes import MAX_CANTE_POINTS
from brisca.game.variants.variant import Log, Variant

__all__ = [
    "MAX_BID",
    "MAX_CARD_POINTS",
    "VARIANT",
    "apply",
    "bid_rank",
    "in_auction",
    "offered",
    "partner_known",
    "refusal",
    "result",
]

#: Card points in a hand; with cantes a subastada bid may reach 220 (40 and three 20s).
MAX_CARD_POINTS = 120
#: The highest bid any rules allow: every card point and every cante.
MAX_BID = MAX_CARD_POINTS + MAX_CANTE_POINTS
assert MAX_BID == ACTIONS_MAX_BID, "a Bid's own cap is the auction's highest bid"


def in_auction(state: State) -> bool:
    """Whether the hand is still bidding or waiting for the trump to be named or called."""
    return state.seating.rules.has_auction and state.trump is None and state.to_act is not None


def _high(state: State) -> BidRecord | None:
    bids = [r for r in state.ledger.bids if not isinstance(r.bid, Pass)]
    return bids[-1] if bids else None


def bid_rank(bid: Action) -> int:
    """The rank a chiamata bid calls: its own rank, or the 2 for a "2 + points" bid."""
    return bid.rank if isinstance(bid, BidRank) else 2


def _max_bid(state: State) -> int:
    rules = state.seating.rules
    if rules.trump_selection is TrumpSelection.CALLED_CARD:
        return MAX_CARD_POINTS
    return MAX_CARD_POINTS + (MAX_CANTE_POINTS if rules.cantes else 0)


#: The calls of an auction; while it runs, every other action waits for the trump.
_CALLS: Final = (Bid, BidRank, Pass, NameTrump, CallCard)


def refusal(state: State, seat: Seat, action: Action) -> str | None:
    """Why `seat` may not make this auction call now, or ``None`` if it may."""
    if type(action) not in _CALLS:  # a card, a swap or a cante: they wait for the trump
        if isinstance(action, Play):
            return "no card is played before the auction ends and the trump is chosen"
        return "the auction is not over"
    rules = state.seating.rules
    if not rules.has_auction:
        return "there is no auction in these rules"
    contract = state.ledger.contract
    if isinstance(action, (NameTrump, CallCard)):
        return _naming_refusal(state, seat, action)
    if contract is not None:
        return "the auction is over"
    if isinstance(action, Pass):
        return None
    high = _high(state)
    top = None if high is None else high.bid
    if rules.trump_selection is TrumpSelection.AUCTION:
        if not isinstance(action, Bid):
            return "subastada bids are points, such as 'bid 60' (rank bids are chiamata's)"
        lowest = rules.bid_minimum if not isinstance(top, Bid) else top.points + rules.bid_step
        if action.points < lowest or (action.points - rules.bid_minimum) % rules.bid_step:
            return f"a bid must be {lowest} or more, in steps of {rules.bid_step}"
        if action.points > _max_bid(state):
            return f"no bid can exceed {_max_bid(state)}"
        return None
    strength = state.seating.strength
    if isinstance(action, BidRank):
        if isinstance(top, Bid) or (isinstance(top, BidRank) and top.rank == 2):
            return "after a 2, bids are '2 + points', such as 'bid 70'"
        if not any(c.rank == action.rank for c in strength):
            return f"there is no rank {action.rank} in this pack"
        if isinstance(top, BidRank) and _rank_strength(state, action.rank) >= _rank_strength(
            state, top.rank
        ):
            return f"a rank bid must be lower in trick order than the {top.rank} bid before it"
        return None
    assert isinstance(action, Bid)
    if not (isinstance(top, Bid) or (isinstance(top, BidRank) and top.rank == 2)):
        return "'2 + points' bids come only after a bid of 2"
    lowest = rules.chiamata_point_minimum if not isinstance(top, Bid) else top.points + 1
    if not lowest <= action.points <= MAX_CARD_POINTS:
        return f"a '2 + points' bid must be from {lowest} to {MAX_CARD_POINTS}"
    return None


def _rank_strength(state: State, rank: int) -> int:
    return next(v for c, v in state.seating.strength.items() if c.rank == rank)


def _naming_refusal(state: State, seat: int, action: Action) -> str | None:
    rules, contract = state.seating.rules, state.ledger.contract
    if contract is None:
        return "the auction is not over"
    if state.trump is not None:
        return "the trump has been chosen already"
    if seat != contract.declarer:
        return f"only the declarer, seat {contract.declarer}, chooses the trump"
    if isinstance(action, NameTrump):
        if rules.trump_selection is not TrumpSelection.AUCTION:
            return "in chiamata the declarer calls a card, such as 'call 3O'"
        return None
    assert isinstance(action, CallCard)
    if rules.trump_selection is not TrumpSelection.CALLED_CARD:
        return "in subastada the declarer names a suit, such as 'trump O'"
    rank = bid_rank(contract.bid)
    if action.card.rank != rank or action.card not in state.seating.card_points:
        return f"the called card must be a {rank}, the rank the auction was won with"
    if not any(action.card in hand for hand in state.hands):
        return f"nobody holds the {action.card}"  # every card is dealt in chiamata
    return None


def offered(state: State, seat: Seat) -> tuple[Action, ...]:
    """The auction calls `seat` may make now, lowest bid first, then pass."""
    rules, contract = state.seating.rules, state.ledger.contract
    if state.trump is not None:
        return ()
    if contract is not None:
        if rules.trump_selection is TrumpSelection.AUCTION:
            candidates: list[Action] = [NameTrump(s) for s in Suit]
        else:
            rank = bid_rank(contract.bid)
            candidates = [CallCard(c) for c in state.seating.card_points if c.rank == rank]
        return tuple(a for a in candidates if refusal(state, seat, a) is None)
    if rules.trump_selection is TrumpSelection.AUCTION:
        candidates = [Bid(p) for p in range(rules.bid_minimum, _max_bid(state) + 1, rules.bid_step)]
    else:
        ranks = sorted(
            {c.rank for c in state.seating.card_points}, key=lambda r: -_rank_strength(state, r)
        )
        candidates = [BidRank(r) for r in ranks]
        candidates += [Bid(p) for p in range(rules.chiamata_point_minimum, MAX_CARD_POINTS + 1)]
    return (*(a for a in candidates if refusal(state, seat, a) is None), Pass())


def apply(state: State, seat: Seat, action: Action, log: Log) -> State:
    """The state after `seat` makes an auction call or chooses the trump."""
    rules, ledger = state.seating.rules, state.ledger
    if log is not None:
        log.append(Announced(seat, str(action)))
    if isinstance(action, (NameTrump, CallCard)):
        return _choose_trump(state, action)
    bids = (*ledger.bids, BidRecord(seat, action))
    ledger = evolve_ledger(ledger, bids=bids)
    passed = {r.seat for r in bids if isinstance(r.bid, Pass)}
    left = [s for s in state.seating.rotation[seat] if s not in passed]
    high = next((r for r in reversed(bids) if not isinstance(r.bid, Pass)), None)
    closes = (
        isinstance(action, BidRank)
        and action.rank == 2
        and rules.chiamata_two_rule is ChiamataTwoRule.TWO_CLOSES
    )
    if not left:  # everyone passed: a void hand
        return evolve_state(state, to_act=None, ledger=ledger)
    if high is not None and (closes or left == [high.seat]):
        contract = Contract(high.seat, high.bid)
        if log is not None:
            log.append(AuctionWon(contract.declarer, str(contract.bid)))
        ledger = evolve_ledger(ledger, contract=contract)
        return evolve_state(state, to_act=high.seat, ledger=ledger)
    after = (*state.seating.rotation[seat][1:], seat)
    return evolve_state(state, to_act=next(s for s in after if s not in passed), ledger=ledger)


def _choose_trump(state: State, action: NameTrump | CallCard) -> State:
    contract = state.ledger.contract
    assert contract is not None
    if isinstance(action, NameTrump):
        contract = attrs.evolve(contract, trump=action.suit)
    else:
        holder = next(s for s, hand in enumerate(state.hands) if action.card in hand)
        contract = attrs.evolve(
            contract, trump=action.card.suit, called=action.card, partner=holder
        )
    old = state.seating
    table = seating_for(old.rules, old.dealer, contract.declarer, contract.partner, old.plan)
    return evolve_state(
        state,
        seating=table,
        trump=contract.trump,
        to_act=table.first_leader,
        ledger=evolve_ledger(state.ledger, contract=contract),
    )


def partner_known(state: State, seat: int) -> bool:
    """Whether `seat` knows who the chiamata partner is: once the called card is played,
    or as its holder, who sees it in hand."""
    contract = state.ledger.contract
    if contract is None or contract.called is None:
        return True
    if seat == contract.partner:
        return True
    called: Card = contract.called
    return any(c is called for _, c in state.trick) or any(
        c is called for t in state.tricks for _, c in t.cards
    )


def _partner_revealed(state: State, seat: Seat, card: Card, log: Log) -> None:
    """Chiamata: the called card's play shows everybody who the partner is."""
    contract = state.ledger.contract
    if log is None or contract is None or contract.partner is None:
        return
    if card is contract.called:
        log.append(PartnerRevealed(contract.partner))


def _observe(state: State, seat: Seat) -> dict[str, Any]:
    """The public auction; in chiamata, every seat alone until `seat` knows the partner."""
    contract = state.ledger.contract
    seen: dict[str, Any] = {"bids": state.ledger.bids, "contract": contract}
    if not partner_known(state, seat):
        seen["sides"] = tuple((s,) for s in sorted(state.seating.active))
        seen["contract"] = None if contract is None else attrs.evolve(contract, partner=None)
    return seen


def _possible(action: Action, rules: Rules) -> bool:
    selection = rules.trump_selection
    auction = selection is TrumpSelection.AUCTION
    called = selection is TrumpSelection.CALLED_CARD
    if isinstance(action, Pass):
        return rules.has_auction
    if isinstance(action, Bid):
        if auction:
            return (
                action.points >= rules.bid_minimum
                and (action.points - rules.bid_minimum) % rules.bid_step == 0
            )
        return (
            called
            and rules.chiamata_two_rule is ChiamataTwoRule.POINTS_AFTER_TWO
            and rules.chiamata_point_minimum <= action.points <= MAX_CARD_POINTS
        )
    if isinstance(action, BidRank):
        return called and any(c.rank == action.rank for c in rules.cards)
    if isinstance(action, NameTrump):
        return auction
    return isinstance(action, CallCard) and called and action.card in rules.cards


def result(state: State, points: tuple[int, ...], last: int | None) -> HandResult:
    """SPEC §2.7, §2.8: the declarer's side makes its contract or fails it; a hand that
    everyone passed is void."""
    rules, table, contract = state.rules, state.seating, state.ledger.contract
    if contract is None:  # everyone passed
        zero = tuple(0 for _ in table.sides)
        return HandResult(termination=Termination.VOID, sides=table.sides, points=zero, winner=None)
    sung = [0] * len(table.sides)
    for cante in state.ledger.cantes:
        sung[table.side_of[cante.seat]] += cante.points
    ours = table.side_of[contract.declarer]
    theirs = 1 - ours
    scores = [0] * rules.num_players
    if rules.trump_selection is TrumpSelection.CALLED_CARD:
        need = max(61, contract.bid.points if isinstance(contract.bid, Bid) else 0)
        made = points[ours] >= need
        caller, partner, defender, alone = rules.chiamata_scores
        sign = 1 if made else -1
        lone = contract.partner == contract.declarer
        for seat in table.active:
            if seat == contract.declarer:
                scores[seat] = sign * (alone if lone else caller)
            elif seat == contract.partner:
                scores[seat] = sign * partner
            else:
                scores[seat] = -sign * defender
    else:
        assert isinstance(contract.bid, Bid)
        made = points[ours] + sung[ours] >= contract.bid.points
        value = contract.bid.points if rules.subasta_scoring is SubastaScoring.BID_VALUE else 1
        for seat in table.sides[ours]:
            scores[seat] = value if made else -value
    return HandResult(
        termination=Termination.CONTRACT_MADE if made else Termination.CONTRACT_FAILED,
        sides=table.sides,
        points=points,
        winner=ours if made else theirs,
        last_trick=last,
        details=ContractResult(contract, made, tuple(sung), tuple(scores)),
    )


VARIANT: Variant = Variant(
    "auction",
    lambda rules: rules.has_auction,
    actions=_CALLS,
    universe=(
        Pass(),
        *(Bid(p) for p in range(1, MAX_BID + 1)),
        *(BidRank(r) for r in RANKS),
        *(NameTrump(s) for s in Suit),
        *(CallCard(c) for c in deck_cards(DeckKind.SPANISH48)),
    ),
    possible=_possible,
    offered=offered,
    refusal=refusal,
    apply=apply,
    before_trump=True,
    on_play=_partner_revealed,
    observe=_observe,
    result=result,
)
