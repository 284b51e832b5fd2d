"""Session properties: any sequence of protocol edits undoes and redoes exactly."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.core.lists import load_list
from armybuilder.tui.session import new_session


def _paths(nodes) -> list[str]:
    out = []
    for n in nodes:
        out.append(n.path)
        out += _paths(n.children)
    return out


def _args(action, draw_index) -> dict:
    args = {}
    for p in action.params:
        if p.kind == "choice":
            if not p.choices:
                return None
            args[p.name] = p.choices[draw_index % len(p.choices)].value
        elif p.kind in ("int", "float"):
            low = int(p.minimum or 0)
            high = int(p.maximum if p.maximum is not None else low + 10)
            args[p.name] = low + draw_index % (high - low + 1)
        elif p.kind == "bool":
            args[p.name] = bool(draw_index % 2)
        else:
            args[p.name] = ["x", "[b]y[/b]", "<&>", ""][draw_index % 4]
    return args


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 10_000), st.integers(0, 10_000)), min_size=1, max_size=12))
def test_edits_undo_and_redo_exactly_and_save_round_trips(r2, store, tmp_path, steps):
    session = new_session(r2, "lions", None, "Prop", tmp_path / "prop.yaml", store)
    session.save()
    history = [session.army]
    for path_pick, action_pick, arg_pick in steps:
        paths = ["", *_paths(session.system.outline(session.army, session.cat))]
        path = paths[path_pick % len(paths)]
        actions = session.system.actions(session.army, session.cat, path)
        if not actions:
            continue
        action = actions[action_pick % len(actions)]
        args = _args(action, arg_pick)
        if args is None:
            continue
        before = session.army
        try:
            session.apply(path, action.id, args)
        except ValueError:
            assert session.army == before  # a refused edit changes nothing
            continue
        if session.army != history[-1]:
            history.append(session.army)
        session.findings()  # never raises, whatever the list holds
    final = session.army
    while session.undo():
        pass
    assert session.army == history[0]
    assert not session.dirty
    while session.redo():
        pass
    assert session.army == final
    session.save()
    assert load_list(tmp_path / "prop.yaml").army == final
