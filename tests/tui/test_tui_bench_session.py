"""The bench's scripted key session does what its comments say on the bundled sample.

`armybuilder bench` times every key of :data:`armybuilder.tui.bench.KEY_SESSION`; a session
that stops matching the editor (an add refused for want of points, a form left open) would time
other work or stop on an error, so it is played here once, as the bench plays it."""

from armybuilder.tui.bench import KEY_SESSION, measure_keys


def test_the_key_session_adds_a_unit_removes_it_and_times_every_key():
    p50, p90, keys = measure_keys(1)
    assert keys == sum(len(step) for step in KEY_SESSION)
    assert 0 < p50 <= p90
