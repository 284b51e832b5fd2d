"""Setting units on the table for the engine's tests (an open table: no scenery unless asked)."""

from __future__ import annotations


def stand(bt, u, x: float, y: float, facing: tuple[float, float] | None = None) -> None:
    """Unit *u* with the middle of its front edge at (x, y), facing its enemy's edge (or *facing*)."""
    fx, fy = facing if facing is not None else ((0.0, 1.0) if u.side == 0 else (0.0, -1.0))
    u.place(x, y, fx, fy)
    bt.moved(u)


def face_off(bt, a, b, gap: float, x: float = 90.0, y: float = 40.0) -> None:
    """*a* (side 0) facing *b* (side 1) across the table, their front edges *gap* cm apart."""
    stand(bt, a, x, y)
    stand(bt, b, x, y + gap)


def aside(bt, *keep) -> None:
    """Every other unit out of the way, at the table's far corners."""
    k = 0
    for side in (0, 1):
        for u in bt.sides[side]:
            if u in keep:
                continue
            stand(bt, u, 10.0 + 26.0 * (k % 6), 16.0 if side == 0 else 104.0)
            k += 1


def scripted(base, choice: str | None):
    """A player of *base*'s kind that assaults whatever it may and answers every assault with one
    Reaction (a subclass, so the compiled engine takes it as a policy)."""

    class Scripted(type(base)):
        def reaction(self, b, unit, assailant):
            return choice

        def assault_target(self, b, unit, options):
            return options[0] if options else None

    return Scripted()


def reacting(bt, side: int, choice: str) -> None:
    """Side *side* reacts with *choice*; the other side assaults what it can."""
    policies = list(bt.policies)
    policies[side] = scripted(policies[side], choice)
    policies[1 - side] = scripted(policies[1 - side], None)
    bt.policies = (policies[0], policies[1])
